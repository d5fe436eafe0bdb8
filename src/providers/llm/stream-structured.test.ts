import { afterEach, describe, expect, it, vi } from 'vitest';
import * as z from 'zod';
import { AbortedError } from '../../core/errors/index.js';
import { type FakeOpenAiServer, startFakeOpenAi } from '../../testing/fake-openai-server.js';
import { createScriptedLlm, type ScriptedStep } from '../../testing/scripted-llm.js';
import { createTestConfig } from '../../testing/test-config.js';
import { createLlmClient } from './create-llm-client.js';

const schema = z.object({
  think: z.string(),
  answer: z.object({ text: z.string().min(1), references: z.array(z.string()) }),
});
const text = "Parasite premiered at the 2019 Cannes Film Festival, where it won the Palme d'Or.";
const reply = { think: 'I know this.', answer: { text, references: ['https://a.example/'] } };

function streamRecorder() {
  const events: string[] = [];
  return {
    events,
    text: () => events.slice(events.lastIndexOf('reset') + 1).join(''),
    options: {
      path: ['answer', 'text'] as const,
      onDelta: (delta: string) => events.push(delta),
      onReset: () => events.push('reset'),
    },
  };
}

const request = {
  role: 'beast' as const,
  system: 'Answer.',
  prompt: 'Where?',
  schema,
  schemaName: 'final_answer',
};

describe('streamed structured output', () => {
  describe('with the scripted model', () => {
    function clientWith(steps: ScriptedStep[]) {
      const model = createScriptedLlm(steps);
      return { model, client: createLlmClient({ config: createTestConfig(), createModel: () => model }) };
    }

    it('emits the answer text in several deltas and still returns the validated object', async () => {
      const { model, client } = clientWith([{ object: reply, chunkSize: 6, chunkDelayMs: 1 }]);
      const recorder = streamRecorder();
      const result = await client.generateObject({ ...request, streamText: recorder.options });
      expect(result.object).toEqual(reply);
      expect(recorder.events.length).toBeGreaterThan(5);
      expect(recorder.events.join('')).toBe(text);
      expect(model.calls[0]!.streamed).toBe(true);
      model.assertConsumed();
    });

    it('resets the streamed text when the reply is re-asked, then streams the new one', async () => {
      const { model, client } = clientWith([
        { object: { think: 'x', answer: { text: 'Half an answer', references: [{}] } } },
        { object: reply },
      ]);
      const recorder = streamRecorder();
      const result = await client.generateObject({ ...request, streamText: recorder.options });
      expect(result.parseFailures).toBe(1);
      expect(recorder.events).toContain('reset');
      expect(recorder.events.slice(0, recorder.events.indexOf('reset')).join('')).toBe('Half an answer');
      expect(recorder.text()).toBe(text);
      model.assertConsumed();
    });

    it('does not stream when no field is asked for', async () => {
      const { model, client } = clientWith([{ object: reply }]);
      await client.generateObject(request);
      expect(model.calls[0]!.streamed).toBe(false);
    });

    it('past llm.maxStreamingCalls calls in flight asks for the whole reply, its field in one delta', async () => {
      const model = createScriptedLlm([
        { object: reply, delayMs: 500 },
        { object: reply, chunkSize: 6 },
        { object: reply, chunkSize: 6 },
      ]);
      const config = createTestConfig({ llm: { maxStreamingCalls: 1 } });
      const client = createLlmClient({ config, createModel: () => model });
      const first = streamRecorder();
      const busy = streamRecorder();
      const held = client.generateObject({ ...request, streamText: first.options });
      await vi.waitFor(() => expect(model.calls).toHaveLength(1), { interval: 5 });
      // One call is in flight: this one is asked whole, and its answer text still comes out.
      const whole = await client.generateObject({ ...request, streamText: busy.options });
      expect(whole.object).toEqual(reply);
      expect(busy.events).toEqual([text]);
      expect((await held).object).toEqual(reply);
      expect(first.text()).toBe(text);
      // Nothing in flight any more: streamed again, in several deltas.
      const again = streamRecorder();
      await client.generateObject({ ...request, streamText: again.options });
      expect(model.calls.map((call) => call.streamed)).toEqual([true, false, true]);
      expect(again.events.length).toBeGreaterThan(5);
      expect(again.events.join('')).toBe(text);
      model.assertConsumed();
    });

    it('never streams with llm.maxStreamingCalls 0', async () => {
      const model = createScriptedLlm([{ object: reply, chunkSize: 6 }]);
      const config = createTestConfig({ llm: { maxStreamingCalls: 0 } });
      const client = createLlmClient({ config, createModel: () => model });
      const recorder = streamRecorder();
      await client.generateObject({ ...request, streamText: recorder.options });
      expect(model.calls[0]!.streamed).toBe(false);
      expect(recorder.events).toEqual([text]);
    });
  });

  describe('over HTTP (OpenAI-compatible SSE)', () => {
    let server: FakeOpenAiServer | undefined;
    afterEach(async () => {
      await server?.close();
      server = undefined;
    });

    function clientFor(url: string) {
      const config = createTestConfig({ llm: { baseURL: `${url}/v1`, model: 'fake-model', maxRetries: 0 } });
      return createLlmClient({ config });
    }

    it('delivers deltas while the server is still writing the reply', async () => {
      let ended = false;
      let endedAtFirstDelta: boolean | undefined;
      const started = performance.now();
      let firstDeltaMs = 0;
      server = await startFakeOpenAi({
        replies: [
          { content: JSON.stringify(reply), chunkSize: 5, chunkDelayMs: 15, onEnd: () => (ended = true) },
        ],
      });
      const deltas: string[] = [];
      const result = await clientFor(server.url).generateObject({
        ...request,
        streamText: {
          path: ['answer', 'text'],
          onDelta: (delta) => {
            if (deltas.length === 0) {
              endedAtFirstDelta = ended;
              firstDeltaMs = performance.now() - started;
            }
            deltas.push(delta);
          },
        },
      });
      const totalMs = performance.now() - started;
      expect(result.object).toEqual(reply);
      expect(deltas.join('')).toBe(text);
      expect(deltas.length).toBeGreaterThan(5);
      expect(endedAtFirstDelta).toBe(false);
      expect(firstDeltaMs).toBeLessThan(totalMs);
      expect(server.requests[0]!.json).toMatchObject({ stream: true });
      // Still JSON-schema mode, and the usage of the stream's last chunk is read.
      expect(server.requests[0]!.schemaName).toBe('final_answer');
      expect(result.usageEstimated).toBe(false);
      expect(result.usage.promptTokens).toBeGreaterThan(0);
      server.assertConsumed();
    });

    it("reads the server's token counts from the stream's last chunk, and those of a whole reply", async () => {
      server = await startFakeOpenAi({
        respond: (sent) => ({
          content: JSON.stringify(reply),
          usage: sent.json?.stream
            ? { prompt_tokens: 1234, completion_tokens: 56 }
            : { prompt_tokens: 987, completion_tokens: 65 },
        }),
      });
      const client = clientFor(server.url);
      const streamed = await client.generateObject({ ...request, streamText: streamRecorder().options });
      expect(streamed.usage).toEqual({ promptTokens: 1234, completionTokens: 56, totalTokens: 1290 });
      expect(streamed.usageEstimated).toBe(false);
      const whole = await client.generateObject(request);
      expect(whole.usage).toEqual({ promptTokens: 987, completionTokens: 65, totalTokens: 1052 });
      expect(server.requests.map((sent) => sent.json?.stream === true)).toEqual([true, false]);
    });

    it('stops a streamed reply within moments when the caller aborts, with an AbortedError and no re-ask', async () => {
      server = await startFakeOpenAi({
        replies: [{ content: JSON.stringify(reply), chunkSize: 2, chunkDelayMs: 100 }],
      });
      const controller = new AbortController();
      const deltas: string[] = [];
      const started = performance.now();
      const error = await clientFor(server.url)
        .generateObject({
          ...request,
          signal: controller.signal,
          streamText: {
            path: ['answer', 'text'],
            onDelta: (delta) => {
              deltas.push(delta);
              controller.abort();
            },
          },
        })
        .catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(AbortedError);
      expect(deltas.length).toBeGreaterThan(0);
      // The whole reply would take about 60 chunks × 100 ms.
      expect(performance.now() - started).toBeLessThan(5000);
      expect(server.requests).toHaveLength(1);
    });

    it('falls back to one request without streaming, for good, when the server refuses to stream', async () => {
      server = await startFakeOpenAi({
        respond: (sent) =>
          sent.json?.stream
            ? { status: 400, body: { error: { message: 'stream is not supported by this server' } } }
            : { content: JSON.stringify(reply) },
      });
      const client = clientFor(server.url);
      const recorder = streamRecorder();
      const outcomes: string[] = [];
      const first = await client.generateObject({
        ...request,
        streamText: recorder.options,
        onCall: (record) => outcomes.push(record.outcome),
      });
      expect(first.object).toEqual(reply);
      expect(recorder.text()).toBe(text);
      expect(outcomes).toEqual(['error', 'ok']);
      await client.generateObject({ ...request, streamText: streamRecorder().options });
      expect(server.requests.map((sent) => sent.json?.stream === true)).toEqual([true, false, false]);
    });
  });
});
