import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRuntime } from '../../src/runtime/create-runtime.js';
import { type RunningServer, startServer } from '../../src/server/start-server.js';
import { type FakeOpenAiServer, startFakeOpenAi } from '../../src/testing/fake-openai-server.js';
import { createTestConfig } from '../../src/testing/test-config.js';
import { heatPumpTexts } from '../helpers/heat-pump-world.js';
import { researchRoutes, researchSearchAndReader, researchTopic } from '../helpers/research-fake-llm.js';

// The fake reader never connects: the pages live under an address that is never resolved.
const webUrl = 'https://research.example';
let llm: FakeOpenAiServer;
let server: RunningServer;
let client: OpenAI;

beforeAll(async () => {
  llm = await startFakeOpenAi({ routes: researchRoutes(webUrl) });
  const config = createTestConfig({
    llm: { baseURL: `${llm.url}/v1`, model: 'fake-model' },
    server: { port: 0 },
  });
  const { search, reader } = researchSearchAndReader(webUrl);
  server = await startServer({
    runtime: createRuntime({ config, search, reader }),
    settings: config.server,
    log: () => {},
  });
  client = new OpenAI({ baseURL: `${server.url}/v1`, apiKey: 'unused', maxRetries: 0 });
});

afterAll(async () => {
  await server.close({ graceMs: 0 });
  await llm.close();
});

type Citation = { url: string; title: string; start_index: number; end_index: number };

function expectCitationsOnMarkers(content: string, annotations: Array<{ url_citation: Citation }>): void {
  expect(annotations.length).toBeGreaterThan(0);
  for (const { url_citation: citation } of annotations) {
    expect(content.slice(citation.start_index, citation.end_index)).toMatch(/^\[\^\d+\]$/);
    expect([`${webUrl}/ehpa`, `${webUrl}/iea`]).toContain(citation.url);
  }
}

describe('model deepsearch-research (official openai client)', () => {
  it('is listed with the other models', async () => {
    const models = await client.models.list();
    expect(models.data.map((model) => model.id)).toContain('deepsearch-research');
  });

  it('answers with the report as content, progress as reasoning, citations as annotations, follow-ups included', async () => {
    const completion = await client.chat.completions.create({
      model: 'deepsearch-research',
      messages: [{ role: 'user', content: researchTopic }],
    });
    const message = completion.choices[0]!.message as (typeof completion.choices)[0]['message'] & {
      reasoning_content: string;
    };
    expect(message.content).toMatch(/^# European heat pump sales after 2022\n/);
    expect(message.content).toContain('## Follow-up questions\n\n1. Which countries drove the 2023 decline?');
    expect(message.content).toContain('[^1]: "Heat pump sales in Europe reached 3 million units in 2022"');
    expect(message.reasoning_content).toContain('Research Strategist: plan: 1 section,');
    // Every cited sentence of the report is a claim: the listed one, the section's other, the summary's.
    expect(message.reasoning_content).toContain('Synthesizer: fact-check: 3 claims, 3 supported');
    expectCitationsOnMarkers(message.content!, message.annotations as Array<{ url_citation: Citation }>);
    const details = (completion as unknown as { deepsearch: Record<string, unknown> }).deepsearch;
    expect(details).toMatchObject({ mode: 'research', title: 'European heat pump sales after 2022' });
    expect(details.follow_ups).toHaveLength(3);
    // Both pages were read: the list of pages that could not be read is there, empty.
    expect(details.skipped).toEqual([]);
    for (const reference of details.references as Array<{ url: string; quote: string }>)
      expect(`${heatPumpTexts.ehpa} ${heatPumpTexts.iea}`).toContain(reference.quote);
    expect(completion.usage!.total_tokens).toBeGreaterThan(0);
  });

  it("streams progress as reasoning_content, then the report (not the sections' own answers), annotations on the finish chunk", async () => {
    const stream = await client.chat.completions.create({
      model: 'deepsearch-research',
      messages: [{ role: 'user', content: researchTopic }],
      stream: true,
    });
    type Delta = {
      content?: string;
      reasoning_content?: string;
      annotations?: Array<{ url_citation: Citation }>;
    };
    const deltas: Delta[] = [];
    for await (const chunk of stream) for (const choice of chunk.choices) deltas.push(choice.delta as Delta);
    const reasoning = deltas.map((delta) => delta.reasoning_content ?? '').join('');
    const content = deltas.map((delta) => delta.content ?? '').join('');
    expect(reasoning).toContain('Research Strategist');
    expect(reasoning).toContain('Synthesizer');
    expect(content).toMatch(/^# European heat pump sales after 2022\n/);
    // The section's deep search answered "Sales reached 3 million units...": that is evidence, not the reply.
    expect(content).not.toContain('Sales reached 3 million units in 2022[^1] and fell');
    expect(content).toContain('## Follow-up questions');
    const finish = deltas.find((delta) => delta.annotations);
    expectCitationsOnMarkers(content, finish?.annotations ?? []);
  });

  it('refuses response_format with a 400 that says what to use instead', async () => {
    const error = await client.chat.completions
      .create({
        model: 'deepsearch-research',
        messages: [{ role: 'user', content: researchTopic }],
        response_format: { type: 'json_object' },
      })
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(OpenAI.BadRequestError);
    expect((error as InstanceType<typeof OpenAI.BadRequestError>).message).toContain(
      "response_format 'json_object' is not supported by deepsearch-research",
    );
  });
});
