import { createServer } from 'node:net';
import { extractText, getDocumentProxy } from 'unpdf';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DeepSearchConfig } from '../../src/config/config-schema.js';
import { findChromium } from '../../src/platform/browser/launch-chromium.js';
import { createRuntime } from '../../src/runtime/create-runtime.js';
import { type RunningServer, startServer } from '../../src/server/start-server.js';
import { listenOnLoopback } from '../../src/testing/fake-http-server.js';
import { type FakeOpenAiServer, startFakeOpenAi } from '../../src/testing/fake-openai-server.js';
import { createTestConfig } from '../../src/testing/test-config.js';
import { researchRoutes, researchSearchAndReader, researchTopic } from '../helpers/research-fake-llm.js';

// biome-ignore lint/suspicious/noExplicitAny: the tests read JSON bodies field by field
type Json = Record<string, any>;

// The fake reader never connects: the pages live under an address that is never resolved.
const webUrl = 'https://research.example';
let llm: FakeOpenAiServer;
const servers: RunningServer[] = [];

beforeAll(async () => {
  llm = await startFakeOpenAi({ routes: researchRoutes(webUrl) });
});
afterAll(async () => {
  await Promise.all(servers.map((server) => server.close({ graceMs: 0 })));
  await llm.close();
});

/** The real server over the heat pump world, runs kept in memory. */
async function start(overrides: Parameters<typeof createTestConfig>[0] = {}) {
  const config: DeepSearchConfig = createTestConfig({
    llm: { baseURL: `${llm.url}/v1`, model: 'fake-model' },
    runs: { file: ':memory:' },
    server: { port: 0 },
    ...overrides,
  });
  const { search, reader } = researchSearchAndReader(webUrl);
  const server = await startServer({
    runtime: createRuntime({ config, search, reader }),
    settings: config.server,
    log: () => {},
  });
  servers.push(server);
  const call = async (path: string, init: { method?: string; body?: unknown } = {}) => {
    const response = await fetch(`${server.url}/v1${path}`, {
      method: init.method ?? (init.body === undefined ? 'GET' : 'POST'),
      headers: init.body === undefined ? {} : { 'content-type': 'application/json' },
      body: init.body === undefined ? undefined : JSON.stringify(init.body),
    });
    return response;
  };
  const json = async (path: string, init: { method?: string; body?: unknown } = {}) => {
    const response = await call(path, init);
    return { status: response.status, body: (await response.json()) as Json };
  };
  const finished = async (id: string): Promise<Json> => {
    for (let tries = 0; tries < 500; tries++) {
      const { body } = await json(`/research/${id}`);
      if (['completed', 'failed', 'cancelled'].includes(body.status)) return body;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    throw new Error(`run ${id} did not finish`);
  };
  return { server, call, json, finished };
}

// PDF is tested where Chromium is installed (CI installs it: .ci/run).
const hasChromium = findChromium(undefined).available;
const planCalls = () => llm.requests.filter((request) => request.route === 'research_plan').length;

describe('research outlines over the API', () => {
  it('POST /v1/research/outline plans only; POST /v1/research with the edited outline follows it', async () => {
    const api = await start();
    const before = { plans: planCalls(), requests: llm.requests.length };
    const outline = await api.json('/research/outline', { body: { question: researchTopic } });
    expect(outline.status).toBe(200);
    expect(outline.body).toMatchObject({
      object: 'research.outline',
      question: researchTopic,
      plan: {
        title: 'European heat pump sales after 2022',
        sections: [{ id: 's1', heading: 'Sales' }],
        dataPoints: [{ description: 'heat pump sales in 2023', sectionId: 's1' }],
      },
      estimate: { tokens: expect.any(Number), timeMs: expect.any(Number), llmCalls: expect.any(Number) },
    });
    expect(outline.body.markdown).toContain(
      '## Sales\n\n- How did heat pump sales in Europe change after 2022?',
    );
    // One planning call and nothing else; no run is recorded.
    expect(planCalls()).toBe(before.plans + 1);
    // (Requests without a route are the probe of the model's window.)
    const calls = llm.requests.slice(before.requests).filter((request) => request.route);
    expect(calls.map((request) => request.route)).toEqual(['research_plan']);
    expect((await api.json('/runs')).body.data).toEqual([]);

    // A person renames the title, adds a section and drops the data point.
    const plan = outline.body.plan;
    const edited = {
      ...plan,
      title: 'Heat pumps: sales and outlook',
      sections: [
        ...plan.sections,
        { heading: 'Outlook', questions: ['What is the outlook for heat pump sales?'] },
      ],
      dataPoints: [],
    };
    const created = await api.json('/research', {
      body: { question: researchTopic, mode: 'research', outline: edited },
    });
    expect(created.status).toBe(202);
    const done = await api.finished(created.body.id);
    expect(done.status).toBe('completed');
    expect(done.result.title).toBe('Heat pumps: sales and outlook');
    expect(done.result.sections.map((section: Json) => [section.id, section.heading])).toEqual([
      ['s1', 'Sales'],
      ['s2', 'Outlook'],
    ]);
    expect(done.result.plan.dataPoints).toEqual([]);
    expect(planCalls()).toBe(before.plans + 1);
    // The markdown outline (as --outline-only prints it) is taken too.
    const fromMarkdown = await api.json('/research', {
      body: {
        question: researchTopic,
        mode: 'research',
        outline: outline.body.markdown.replace('## Sales', '## Sales by year'),
      },
    });
    expect(fromMarkdown.status).toBe(202);
    const second = await api.finished(fromMarkdown.body.id);
    expect(second.result.sections.map((section: Json) => section.heading)).toEqual(['Sales by year']);
  }, 60_000);

  it('refuses a bad outline with a 400 that says what to fix, before any run', async () => {
    const api = await start();
    const refuse = async (body: Json) => {
      const { status, body: answer } = await api.json('/research', { body });
      expect(status).toBe(400);
      expect(answer.error.param).toBe('outline');
      return answer.error.message as string;
    };
    const good = { title: 'T', sections: [{ heading: 'A', questions: ['Why?'] }] };
    await expect(
      refuse({
        question: researchTopic,
        mode: 'research',
        outline: { ...good, sections: [{ heading: 'A', questions: [] }] },
      }),
    ).resolves.toBe('outline.sections.0.questions: a section needs at least one question');
    await expect(
      refuse({ question: researchTopic, mode: 'research', outline: { ...good, sections: [] } }),
    ).resolves.toBe('outline.sections: an outline needs at least one section');
    await expect(
      refuse({
        question: researchTopic,
        mode: 'research',
        outline: { ...good, dataPoints: [{ description: 'x', sectionId: 's9' }] },
      }),
    ).resolves.toBe('outline.dataPoints: "x" names section s9, which the outline does not have');
    await expect(refuse({ question: researchTopic, outline: good })).resolves.toBe(
      'an outline is followed by research: send mode "research" with it',
    );
    await expect(
      refuse({ question: researchTopic, mode: 'research', outline: '# Title\n## Empty\n' }),
    ).resolves.toBe('outline line 2: section "Empty" has no question; add a line starting with "- "');
    const unknown = await api.json('/research/outline', { body: { question: researchTopic, outline: 'x' } });
    expect(unknown.status).toBe(400);
    expect(unknown.body.error.message).toMatch(/^unknown field 'outline'/);
    const empty = await api.json('/research/outline', { body: { question: ' ' } });
    expect(empty.body.error).toMatchObject({ param: 'question' });
    expect((await api.json('/runs')).body.data).toEqual([]);
  });
});

describe('GET /v1/research/{id}/report', () => {
  it('serves the report as md, html, json and (with Chromium) pdf; lists the formats in GET', async () => {
    const api = await start();
    const created = await api.json('/research', { body: { question: researchTopic, mode: 'research' } });
    const done = await api.finished(created.body.id);
    expect(done.report_formats).toEqual(hasChromium ? ['md', 'html', 'json', 'pdf'] : ['md', 'html', 'json']);
    const file = (format: string) => api.call(`/research/${created.body.id}/report?format=${format}`);
    const markdown = await file('md');
    expect(markdown.headers.get('content-disposition')).toBe(
      'attachment; filename="european-heat-pump-sales-after-2022.md"',
    );
    expect(await markdown.text()).toBe(done.result.markdown);
    const html = await file('html');
    expect(html.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(html.headers.get('content-security-policy')).toContain('sandbox');
    const page = await html.text();
    expect(page).toMatch(/^<!doctype html>/);
    expect(page).toContain('<h1>European heat pump sales after 2022</h1>');
    expect(page).not.toMatch(/<script|src="http/);
    expect(JSON.parse(await (await file('json')).text()).title).toBe('European heat pump sales after 2022');
    if (hasChromium) {
      const pdf = await file('pdf');
      expect(pdf.headers.get('content-type')).toBe('application/pdf');
      const bytes = new Uint8Array(await pdf.arrayBuffer());
      expect(Buffer.from(bytes.slice(0, 5)).toString()).toBe('%PDF-');
      const { text: raw } = await extractText(await getDocumentProxy(bytes), { mergePages: true });
      const text = raw.replace(/\s+/g, ' ');
      expect(text).toContain('European heat pump sales after 2022');
      expect(text).toContain('Heat pump sales in Europe reached 3 million units in 2022');
    }
    const bad = await api.json(`/research/${created.body.id}/report?format=docx`);
    expect(bad).toMatchObject({ status: 400, body: { error: { param: 'format' } } });
    expect((await api.json('/research/run_nope/report')).status).toBe(404);
  }, 60_000);

  it('without Chromium, PDF is not offered and refused with what to do; a deep search has no report', async () => {
    const api = await start({ server: { port: 0 }, reader: { chromiumPath: '/nonexistent/chromium' } });
    const created = await api.json('/research', { body: { question: researchTopic, mode: 'research' } });
    const done = await api.finished(created.body.id);
    expect(done.report_formats).toEqual(['md', 'html', 'json']);
    const pdf = await api.json(`/research/${created.body.id}/report?format=pdf`);
    expect(pdf.status).toBe(501);
    expect(pdf.body.error).toMatchObject({
      code: 'pdf_unavailable',
      message:
        'PDF export needs Chromium where the server runs: Chromium is not at /nonexistent/chromium (DEEPSEARCH_CHROMIUM_PATH): install it or fix the path; HTML works',
    });
    const search = await api.json('/research', { body: { question: researchTopic } });
    const answered = await api.finished(search.body.id);
    expect(answered.report_formats).toBeUndefined();
    const none = await api.json(`/research/${search.body.id}/report?format=html`);
    expect(none.status).toBe(400);
    expect(none.body.error.message).toBe(
      `run ${search.body.id} is a deep search, not research: its answer is in GET /v1/research/${search.body.id}`,
    );
  }, 60_000);
});

describe('a run whose LLM is down', () => {
  it('fails with what failed, in words, and no address or secret', async () => {
    // A port that was just free: nothing listens there now.
    const probe = createServer();
    const port = await listenOnLoopback(probe);
    await new Promise<void>((resolve) => probe.close(() => resolve()));
    const api = await start({
      llm: {
        baseURL: `http://127.0.0.1:${port}/v1`,
        model: 'fake-model',
        apiKey: 'sk-secret-llm-key-0123456789',
        maxRetries: 0,
      },
    });
    const created = await api.json('/research', { body: { question: 'What is the capital of France?' } });
    const done = await api.finished(created.body.id);
    expect(done.status).toBe('failed');
    expect(done.error).toMatchObject({
      code: 'provider_unreachable',
      message: 'the LLM server (openai-compatible) could not be reached: connection refused (ECONNREFUSED)',
    });
    expect(JSON.stringify(done)).not.toMatch(new RegExp(`${port}|sk-secret`));
  }, 60_000);
});
