import { describe, expect, it } from 'vitest';
import { createLlmClient } from '../../providers/llm/create-llm-client.js';
import { startFakeOpenAi } from '../../testing/fake-openai-server.js';
import { trackServers, wireConfig } from '../../testing/llm-wire-contract.js';
import { answerTextPaths } from '../answer-draft.js';
import { actionNames, createActionSchema } from './action-registry.js';
import { liftStepReply } from './lift-step-reply.js';

const limits = { maxQueries: 3, maxUrls: 2, maxGapQuestions: 5, maxReferences: 10 };
const spec = { provider: 'openai-compatible', model: 'qwen2.5:7b' } as const;
const text = 'Bong Joon-ho directed Parasite[^1], which premiered at Cannes in May 2019.';
const references = [{ source: 1, quote: 'directed by Bong Joon-ho' }];

interface JsonNode {
  type?: string;
  properties?: Record<string, JsonNode>;
  required?: string[];
  anyOf?: JsonNode[];
  const?: unknown;
}

describe('the agent step on the wire (OpenAI-compatible server)', () => {
  const track = trackServers();

  async function ask(reply: unknown, options: { chunked?: boolean } = {}) {
    const server = track(
      await startFakeOpenAi({
        replies: [
          { content: JSON.stringify(reply), ...(options.chunked ? { chunkSize: 7, chunkDelayMs: 1 } : {}) },
        ],
      }),
    );
    const deltas: string[] = [];
    const client = createLlmClient({ config: wireConfig(spec, `${server.url}/v1`) });
    const result = await client.generateObject({
      role: 'agent',
      system: 'Act.',
      prompt: 'Who directed Parasite?',
      schema: createActionSchema([...actionNames], limits),
      schemaName: 'agent_action',
      repair: liftStepReply,
      streamText: { ...answerTextPaths, onDelta: (delta) => deltas.push(delta) },
    });
    server.assertConsumed();
    return { result, deltas, sent: server.requests[0]! };
  }

  it('sends a root object whose step is an anyOf of complete actions, each requiring its payload', async () => {
    const { sent } = await ask({ think: 't', step: { action: 'answer', answer: { text, references } } });
    const format = sent.json!.response_format as { type: string; json_schema: { schema: JsonNode } };
    expect(format.type).toBe('json_schema');
    const schema = format.json_schema.schema;
    expect(schema.type).toBe('object');
    expect(schema.required).toEqual(['think', 'step']);
    expect(JSON.stringify(schema)).not.toContain('oneOf');
    const branches = schema.properties!.step!.anyOf!;
    expect(branches.map((branch) => branch.properties!.action!.const)).toEqual([...actionNames]);
    for (const branch of branches) {
      const name = branch.properties!.action!.const as string;
      expect(branch.required, name).toEqual(['action', name]);
      expect(branch.properties![name]!.required!.length, name).toBeGreaterThan(0);
    }
  });

  it('streams the answer text of a nested step as it arrives, and returns the flat step', async () => {
    const { result, deltas, sent } = await ask(
      { think: 'The page says so.', step: { action: 'answer', answer: { text, references } } },
      { chunked: true },
    );
    expect(sent.json).toMatchObject({ stream: true });
    expect(deltas.length).toBeGreaterThan(3);
    expect(deltas.join('')).toBe(text);
    expect(result.object).toEqual({
      think: 'The page says so.',
      action: 'answer',
      answer: { text, references },
    });
    expect(result.repairs).toBe(0);
  });

  it('streams a step written flat too, and takes it as one repair', async () => {
    const { result, deltas } = await ask(
      { think: 't', action: 'answer', answer: { text, references } },
      { chunked: true },
    );
    expect(deltas.join('')).toBe(text);
    expect(result.object).toEqual({ think: 't', action: 'answer', answer: { text, references } });
    expect(result.repairs).toBe(1);
    expect(result.parseFailures).toBe(0);
  });
});
