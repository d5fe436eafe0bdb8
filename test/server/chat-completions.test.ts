import type {
  ChatCompletion,
  ChatCompletionChunk,
  ChatCompletionCreateParamsNonStreaming,
  ChatCompletionCreateParamsStreaming,
} from 'openai/resources/chat/completions';
import { afterEach, describe, expect, it } from 'vitest';
import { scriptedStep } from '../../src/testing/scripted-steps.js';
import { citedRun } from '../helpers/server-fixtures.js';
import { postChat, sseData, startTestServer, type TestServer } from '../helpers/server-harness.js';

const { question, parasiteUrl, oscarsUrl, pages, search } = citedRun;
const fullRun = () => citedRun.steps();

let server: TestServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

/** The question through the official client, with deepsearch's own options in `extra`. */
function askQuestion(extra: Record<string, unknown> = {}): Promise<ChatCompletion> {
  const params = { model: 'deepsearch', messages: [{ role: 'user', content: question }], ...extra };
  return server!.client.chat.completions.create(params as ChatCompletionCreateParamsNonStreaming);
}

async function streamQuestion(extra: Record<string, unknown> = {}): Promise<ChatCompletionChunk[]> {
  const params = {
    model: 'deepsearch',
    messages: [{ role: 'user', content: question }],
    stream: true,
    ...extra,
  };
  const stream = await server!.client.chat.completions.create(params as ChatCompletionCreateParamsStreaming);
  const chunks: ChatCompletionChunk[] = [];
  for await (const chunk of stream) chunks.push(chunk);
  return chunks;
}

const trivialStream = JSON.stringify({
  model: 'deepsearch',
  messages: [{ role: 'user', content: 'What is 1+1?' }],
  stream: true,
});

type Citation = { url: string; title: string; start_index: number; end_index: number };

function expectCitationsOnMarkers(
  content: string,
  annotations: Array<{ type: string; url_citation: Citation }>,
) {
  expect(annotations.map((annotation) => annotation.url_citation.url)).toEqual([oscarsUrl, parasiteUrl]);
  expect(annotations[0]!.url_citation.title).toBe('91st Academy Awards');
  for (const [position, annotation] of annotations.entries()) {
    expect(annotation.type).toBe('url_citation');
    const { start_index, end_index } = annotation.url_citation;
    expect(content.slice(start_index, end_index)).toBe(`[^${position + 1}]`);
  }
}

describe('POST /v1/chat/completions with the official openai client', () => {
  it('answers without streaming: content with footnotes, url_citation annotations, reasoning, usage', async () => {
    server = await startTestServer({ steps: fullRun(), search, pages });
    const completion = await askQuestion();
    server.llm.assertConsumed();
    const message = completion.choices[0]!.message;
    expect(completion.object).toBe('chat.completion');
    expect(completion.id).toMatch(/^chatcmpl-/);
    expect(completion.choices[0]!.finish_reason).toBe('stop');
    expect(message.content).toMatch(/^Peter Farrelly directed Green Book\[\^1\]/);
    expect(message.content).toContain(
      `[^1]: "Green Book won Best Picture. The film was directed by Peter Farrelly" [91st Academy Awards](${oscarsUrl})`,
    );
    expectCitationsOnMarkers(message.content!, message.annotations as never);
    const reasoning = (message as unknown as { reasoning_content: string }).reasoning_content;
    expect(reasoning).toContain('Find when Parasite premiered.');
    expect(reasoning).toContain('"Parasite premiere", "Best Picture 2019": 2 results');
    expect(reasoning).toContain(`✓ read 91st Academy Awards <${oscarsUrl}>`);
    expect(reasoning).toContain('✓ definitive check');
    const usage = completion.usage!;
    expect(usage.prompt_tokens).toBeGreaterThan(0);
    expect(usage.total_tokens).toBe(usage.prompt_tokens + usage.completion_tokens);
    const details = (
      completion as unknown as {
        deepsearch: { confidence: string; references: unknown[]; skipped: unknown[] };
      }
    ).deepsearch;
    expect(details.confidence).toBe('high');
    expect(details.references).toHaveLength(2);
    // Every page chosen was read: the list of pages that could not be read is there, empty.
    expect(details.skipped).toEqual([]);
    expect(server.logs.at(-1)).toMatchObject({
      path: '/v1/chat/completions',
      status: 200,
      outcome: 'answered',
      tokens: usage.total_tokens,
    });
  });

  it('streams progress as reasoning_content, then the same answer, annotations and usage on the finish chunk, usage in a last chunk', async () => {
    server = await startTestServer({ steps: fullRun(), search, pages });
    const chunks = await streamQuestion({ stream_options: { include_usage: true } });
    server.llm.assertConsumed();
    type Delta = {
      content?: string;
      reasoning_content?: string;
      annotations?: Array<{ type: string; url_citation: Citation }>;
    };
    const deltas = chunks.flatMap((chunk) => chunk.choices.map((choice) => choice.delta as Delta));
    expect(chunks[0]!.choices[0]!.delta.role).toBe('assistant');
    const reasoning = deltas.map((delta) => delta.reasoning_content ?? '').join('');
    const content = deltas.map((delta) => delta.content ?? '').join('');
    expect(deltas.filter((delta) => delta.reasoning_content).length).toBeGreaterThan(5);
    expect(reasoning).toContain('Step 2');
    expect(reasoning).toContain('→ visit');
    expect(content).toMatch(/^Peter Farrelly directed Green Book\[\^1\]/);
    expect(content).toContain('[^2]: "premiered at the 2019 Cannes Film Festival on 21 May 2019"');
    const firstContent = deltas.findIndex((delta) => delta.content);
    const lastReasoning = deltas.findLastIndex((delta) => delta.reasoning_content);
    expect(firstContent).toBeGreaterThan(lastReasoning);
    const finish = chunks.filter((chunk) => chunk.choices[0]?.finish_reason);
    expect(finish.map((chunk) => chunk.choices[0]!.finish_reason)).toEqual(['stop']);
    // The annotations ride on the finish chunk only (LobeChat reads them there; no copy elsewhere).
    const finishDelta = finish[0]!.choices[0]!.delta as Delta;
    expectCitationsOnMarkers(content, finishDelta.annotations ?? []);
    expect(deltas.filter((delta) => delta.annotations)).toHaveLength(1);
    const last = chunks.at(-1)!;
    expect(last.choices).toEqual([]);
    expect(last.usage!.total_tokens).toBe(last.usage!.prompt_tokens + last.usage!.completion_tokens);
    expect(last.usage!.prompt_tokens).toBeGreaterThan(0);
    // Usage on the finish chunk too, for clients that stop reading there; null on every other chunk.
    expect(finish[0]!.usage).toEqual(last.usage);
    expect(chunks.filter((chunk) => chunk.usage !== null)).toEqual([finish[0], last]);
    expect(new Set(chunks.map((chunk) => chunk.id)).size).toBe(1);
  });

  it('without include_usage, usage is only on the finish chunk (no usage-only chunk); SSE is not buffered by proxies', async () => {
    server = await startTestServer({ steps: [scriptedStep.answer('2')] });
    const response = await postChat(server.url, trivialStream);
    expect(response.headers.get('content-type')).toContain('text/event-stream');
    expect(response.headers.get('x-accel-buffering')).toBe('no');
    const text = await response.text();
    const chunks = sseData(text)
      .filter((data) => data !== '[DONE]')
      .map((data) => JSON.parse(data) as { usage?: { total_tokens: number }; choices: unknown[] });
    const withUsage = chunks.filter((chunk) => 'usage' in chunk);
    expect(withUsage).toEqual([chunks.at(-1)]);
    expect(withUsage[0]!.choices).toHaveLength(1);
    expect(withUsage[0]!.usage!.total_tokens).toBeGreaterThan(0);
    expect(text.trimEnd().endsWith('data: [DONE]')).toBe(true);
  });

  it('with think_tags, puts progress inside <think> in the content and keeps annotation indices right', async () => {
    server = await startTestServer({ steps: fullRun(), search, pages });
    let content = '';
    const annotations: Array<{ type: string; url_citation: Citation }> = [];
    let reasoningChunks = 0;
    for (const chunk of await streamQuestion({ think_tags: true })) {
      const delta = chunk.choices[0]?.delta as
        | { content?: string; reasoning_content?: string; annotations?: typeof annotations }
        | undefined;
      content += delta?.content ?? '';
      annotations.push(...(delta?.annotations ?? []));
      if (delta?.reasoning_content) reasoningChunks++;
    }
    expect(reasoningChunks).toBe(0);
    expect(content).toMatch(/^<think>\nStep 1: Who directed/);
    expect(content).toMatch(/<\/think>\n\nPeter Farrelly directed Green Book\[\^1\]/);
    expectCitationsOnMarkers(content, annotations);
  });

  it('with think_tags and no streaming, the content starts with the <think> block and annotations still hit the markers', async () => {
    server = await startTestServer({ steps: fullRun(), search, pages });
    const completion = await askQuestion({ think_tags: true });
    const message = completion.choices[0]!.message;
    expect(message.content).toMatch(
      /^<think>\nStep 1: Who directed[\s\S]*<\/think>\n\nPeter Farrelly directed/,
    );
    expect(message).not.toHaveProperty('reasoning_content');
    expectCitationsOnMarkers(message.content!, message.annotations as never);
  });

  it('keeps a quiet stream alive with SSE comments, which the client skips', async () => {
    server = await startTestServer({
      heartbeatMs: 20,
      steps: [{ ...scriptedStep.answer('2'), delayMs: 150 }],
    });
    const response = await postChat(server.url, trivialStream);
    const text = await response.text();
    expect(text.match(/^: keep-alive$/gm)?.length).toBeGreaterThanOrEqual(2);
    server.llm.push({ ...scriptedStep.answer('2'), delayMs: 100 });
    const stream = await server.client.chat.completions.create({
      model: 'deepsearch',
      messages: [{ role: 'user', content: 'What is 1+1?' }],
      stream: true,
    });
    let content = '';
    for await (const chunk of stream) content += chunk.choices[0]?.delta.content ?? '';
    expect(content).toBe('2');
  });
});
