import { describe, expect, it } from 'vitest';
import { startFakeAnthropic } from '../../../test/helpers/fake-anthropic-server.js';
import { startFakeGoogle } from '../../../test/helpers/fake-google-server.js';
import { trackServers, wireConfig } from '../../../test/helpers/llm-wire-contract.js';
import { createLlmClient } from '../../providers/llm/create-llm-client.js';
import { startFakeOpenAi } from '../../testing/fake-openai-server.js';
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
  enum?: unknown[];
}

/** Each branch of the step's anyOf: its action (a const, or Gemini's one-value enum) and what it requires. */
function stepBranches(schema: JsonNode): Array<{ action: unknown; required: string[] | undefined }> {
  return schema.properties!.step!.anyOf!.map((branch) => {
    const action = branch.properties!.action!;
    return { action: action.const ?? action.enum?.[0], required: branch.required };
  });
}

const completeBranches = actionNames.map((name) => ({ action: name, required: ['action', name] }));

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
    expect(stepBranches(schema)).toEqual(completeBranches);
    // think's cap is held by the grammar; the answer's 5000 would make llama.cpp refuse the grammar.
    expect(schema.properties!.think).toMatchObject({ maxLength: 800 });
    const answer = schema.properties!.step!.anyOf!.find((branch) => branch.properties!.answer)!;
    expect(answer.properties!.answer!.properties!.text).not.toHaveProperty('maxLength');
    for (const branch of schema.properties!.step!.anyOf!) {
      const name = branch.properties!.action!.const as string;
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

  const vendors = {
    anthropic: {
      start: startFakeAnthropic,
      baseURL: (url: string) => `${url}/v1`,
      model: 'claude-haiku-4-5',
      schemaOf: (json: Record<string, unknown>) =>
        (json.output_config as { format: { schema: JsonNode } }).format.schema,
    },
    google: {
      start: startFakeGoogle,
      baseURL: (url: string) => `${url}/v1beta`,
      model: 'gemini-2.5-flash',
      schemaOf: (json: Record<string, unknown>) =>
        (json.generationConfig as { responseSchema: JsonNode }).responseSchema,
    },
  } as const;
  for (const [provider, vendor] of Object.entries(vendors)) {
    it(`reaches ${provider} as the same anyOf of complete actions`, async () => {
      const reply = { think: 't', step: { action: 'search', search: { queries: ['a'] } } };
      const server = track(await vendor.start({ replies: [{ content: JSON.stringify(reply) }] }));
      const config = wireConfig(
        { provider: provider as 'anthropic' | 'google', model: vendor.model },
        vendor.baseURL(server.url),
      );
      const result = await createLlmClient({ config }).generateObject({
        role: 'agent',
        system: 'Act.',
        prompt: 'Q',
        schema: createActionSchema([...actionNames], limits),
        schemaName: 'agent_action',
        repair: liftStepReply,
      });
      expect(result.object).toEqual({ think: 't', action: 'search', search: { queries: ['a'] } });
      const schema = vendor.schemaOf(server.requests[0]!.json as Record<string, unknown>);
      expect(stepBranches(schema)).toEqual(completeBranches);
      expect(JSON.stringify(schema)).not.toContain('oneOf');
    });
  }
});
