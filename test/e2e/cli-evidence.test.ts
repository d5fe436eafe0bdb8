import { mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FakeHttpServer } from '../../src/testing/fake-http-server.js';
import { type FakeOpenAiServer, startFakeOpenAi } from '../../src/testing/fake-openai-server.js';
import { startFakeSearxng } from '../helpers/fake-searxng-server.js';
import { type FakeWebPage, startFakeWeb } from '../helpers/fake-web-server.js';
import { heatPumpTexts } from '../helpers/heat-pump-world.js';
import { researchRoutes, researchSearxngResults, researchTopic } from '../helpers/research-fake-llm.js';
import { runBuiltCli } from '../helpers/run-built-cli.js';
import { type BuiltServer, serveBuiltCli } from '../helpers/serve-built-cli.js';

const require = createRequire(import.meta.url);
const { Cite } = require('@citation-js/core') as {
  Cite: new (data: string) => { data: Array<Record<string, unknown>> };
};
require('@citation-js/plugin-bibtex');
require('@citation-js/plugin-ris');

const dir = mkdtempSync(join(tmpdir(), 'deepsearch-evidence-'));
const runsFile = join(dir, 'runs.sqlite');
const keyA = 'sk-evidence-owner-a-0123456789';
const keyB = 'sk-evidence-owner-b-0123456789';

/** The EHPA page with the metadata a citation takes (site name, author, date); the IEA page without. */
const ehpaHtml = `<html><head><title>European Heat Pump Market Report</title>
<meta property="og:site_name" content="European Heat Pump Association">
<meta name="author" content="Jan Rosenow">
<meta property="article:published_time" content="2024-03-04T09:00:00Z">
</head><body><article><h1>Market report</h1><p>${heatPumpTexts.ehpa}</p></article></body></html>`;
const iea = {
  html: `<html><head><title>The Future of Heat Pumps</title></head><body><article><h1>IEA</h1><p>${heatPumpTexts.iea}</p></article></body></html>`,
};

const pages: Record<string, FakeWebPage> = { '/ehpa': { html: ehpaHtml }, '/iea': iea };
let web: FakeHttpServer;
let searxng: FakeHttpServer;
let llm: FakeOpenAiServer;
let ehpa: string;
let ieaUrl: string;
let runId: string;
const today = new Date().toISOString().slice(0, 10);

beforeAll(async () => {
  web = await startFakeWeb({ pages });
  ehpa = `${web.url}/ehpa`;
  ieaUrl = `${web.url}/iea`;
  searxng = await startFakeSearxng({ results: researchSearxngResults(web.url) });
  llm = await startFakeOpenAi({ routes: researchRoutes(web.url) });
  const asked = await runBuiltCli(['ask', researchTopic, '--json'], env(), { timeoutMs: 60_000 });
  expect(asked.code, asked.stderr).toBe(0);
  runId = JSON.parse(asked.stdout).runId;
}, 90_000);

afterAll(async () => {
  await Promise.all([web.close(), searxng.close(), llm.close()]);
  rmSync(dir, { recursive: true, force: true });
});

function env(): Record<string, string> {
  return {
    DEEPSEARCH_LLM_BASE_URL: `${llm.url}/v1`,
    DEEPSEARCH_LLM_MODEL: 'fake-model',
    DEEPSEARCH_SEARCH_PROVIDER: 'searxng',
    DEEPSEARCH_SEARXNG_URL: searxng.url,
    DEEPSEARCH_ALLOW_PRIVATE_NETWORK: '1',
    DEEPSEARCH_READER: 'builtin',
    DEEPSEARCH_NO_RUNS: '0',
    DEEPSEARCH_RUNS_FILE: runsFile,
  };
}

const cli = (args: string[]) => runBuiltCli(args, env(), { timeoutMs: 30_000 });

describe('source snapshots and citation export (built CLI, fake LLM, a local web)', () => {
  it('runs evidence lists each cited claim with its quote, source, read date and check', async () => {
    const listed = await cli(['runs', 'evidence', runId]);
    expect(listed.code, listed.stderr).toBe(0);
    const out = listed.stdout;
    expect(out).toContain('[1] Sales reached 3 million units in 2022');
    expect(out).toContain('quote     "Heat pump sales in Europe reached 3 million units in 2022"');
    expect(out).toContain(`source    European Heat Pump Market Report ${ehpa}`);
    expect(out).toContain(`[3] `);
    expect(out).toContain('quote     "In 2023 heat pump sales in Europe declined by 7 percent"');
    expect(out).toMatch(new RegExp(`read {6}${today} \\d\\d:\\d\\d UTC`));
    expect(out).toContain('verified  yes, exact quote: the quote was found in the text read from the source');

    const json = await cli(['runs', 'evidence', runId, '--json']);
    const evidence = JSON.parse(json.stdout);
    expect(evidence.run_id).toBe(runId);
    expect(evidence.claims.map((claim: { footnote: number; url: string; source: number }) => claim)).toEqual([
      expect.objectContaining({ footnote: 1, url: ehpa, source: 1, verified: true, quote_kind: 'exact' }),
      expect.objectContaining({ footnote: 2, url: ehpa, source: 1, quote: 'Sales fell by 5% in 2023' }),
      expect.objectContaining({ footnote: 3, url: ieaUrl, source: 2, verified: true }),
    ]);
    expect(evidence.sources[0]).toMatchObject({
      n: 1,
      url: ehpa,
      status: 200,
      site_name: 'European Heat Pump Association',
      author: 'Jan Rosenow',
      published_at: '2024-03-04T09:00:00.000Z',
      footnotes: [1, 2],
    });
    expect(evidence.sources[0].accessed_at.slice(0, 10)).toBe(today);
    expect(evidence.sources[0].hash).toMatch(/^[0-9a-f]{64}$/);
  });

  it('--format bibtex, ris and csl-json parse back with citation-js: every URL with its accessed date', async () => {
    const [year, month, day] = today.split('-').map(Number);
    for (const format of ['bibtex', 'ris', 'csl-json']) {
      const exported = await cli(['runs', 'evidence', runId, '--format', format]);
      expect(exported.code, exported.stderr).toBe(0);
      const items = new Cite(exported.stdout).data;
      expect(items.map((item) => item.URL).sort(), format).toEqual([ehpa, ieaUrl].sort());
      for (const item of items) expect(item.accessed, format).toEqual({ 'date-parts': [[year, month, day]] });
      const report = items.find((item) => item.URL === ehpa)!;
      expect(report.title, format).toBe('European Heat Pump Market Report');
      expect(String(report.note), format).toContain('Sales fell by 5% in 2023');
      expect(report.issued, format).toEqual({ 'date-parts': [[2024, 3, 4]] });
      expect(JSON.stringify(report.author), format).toContain('Jan Rosenow');
    }
    const bibtex = (await cli(['runs', 'evidence', runId, '--format', 'bibtex'])).stdout;
    expect(bibtex).toMatch(/^@online\{source1,/);
    expect(bibtex).toContain(`urldate = {${today}}`);
    const ris = (await cli(['runs', 'evidence', runId, '--format', 'ris'])).stdout;
    expect(ris).toMatch(/^TY {2}- ELEC/m);
    expect(ris).toContain(`UR  - ${ehpa}`);
  });

  it('a bad --format, an unknown run and a footnote out of range are said, exit 2', async () => {
    const bad = await cli(['runs', 'evidence', runId, '--format', 'endnote']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('--format must be one of csl-json, bibtex, ris (got "endnote")');
    const unknown = await cli(['runs', 'evidence', 'no-such-run']);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('no-such-run');
    const outOfRange = await cli(['runs', 'source', runId, '9']);
    expect(outOfRange.code).toBe(2);
    expect(outOfRange.stderr).toContain(`run ${runId} has no source 9: its footnotes are 1 to 3`);
  });

  it('runs source prints the text as read, its quote marked, after the page changed and then went', async () => {
    pages['/ehpa'] = {
      html: '<html><head><title>Moved</title></head><body><p>This report was withdrawn.</p></body></html>',
    };
    const changed = await cli(['runs', 'source', runId, '2']);
    expect(changed.code, changed.stderr).toBe(0);
    expect(changed.stdout).toContain(
      'Heat pump sales in Europe reached 3 million units in 2022. >>>Sales fell by 5% in 2023<<<',
    );
    expect(changed.stdout).toContain(`url       ${ehpa}`);
    expect(changed.stdout).not.toContain('withdrawn');
    delete pages['/ehpa'];
    const gone = await cli(['runs', 'source', runId, '1']);
    expect(gone.code, gone.stderr).toBe(0);
    expect(gone.stdout).toContain('>>>Heat pump sales in Europe reached 3 million units in 2022<<<');
    expect((await fetch(ehpa)).status).toBe(404);
    pages['/ehpa'] = { html: ehpaHtml };
  });
});

describe("a research run keeps its sections' sources", () => {
  it('runs evidence of a research report lists its cited sources as read', async () => {
    const researched = await runBuiltCli(['research', researchTopic, '--json'], env(), { timeoutMs: 90_000 });
    expect(researched.code, researched.stderr).toBe(0);
    const report = JSON.parse(researched.stdout);
    const evidence = JSON.parse((await cli(['runs', 'evidence', report.runId, '--json'])).stdout);
    expect(evidence.mode).toBe('research');
    const cited = [...new Set(report.references.map((reference: { url: string }) => reference.url))];
    expect(cited.length).toBeGreaterThan(0);
    expect(evidence.sources.map((source: { url: string }) => source.url)).toEqual(cited);
    for (const source of evidence.sources) {
      expect(source.accessed_at.slice(0, 10)).toBe(today);
      expect(source.hash).toMatch(/^[0-9a-f]{64}$/);
    }
    const shown = await cli(['runs', 'source', report.runId, '1']);
    expect(shown.code, shown.stderr).toBe(0);
    expect(shown.stdout).toContain(`>>>${report.references[0].quote}<<<`);
  }, 120_000);
});

describe('the evidence API (built serve)', () => {
  let server: BuiltServer;
  let apiRun: string;
  const get = (path: string, key: string) =>
    fetch(`${server.url}/v1${path}`, { headers: { authorization: `Bearer ${key}` } });

  beforeAll(async () => {
    server = await serveBuiltCli({ ...env(), DEEPSEARCH_API_KEYS: `${keyA},${keyB}` });
    const posted = await fetch(`${server.url}/v1/research`, {
      method: 'POST',
      headers: { authorization: `Bearer ${keyA}`, 'content-type': 'application/json' },
      body: JSON.stringify({ question: researchTopic, mode: 'search' }),
    });
    expect(posted.status).toBeLessThan(300);
    apiRun = (await posted.json()).id;
    for (let tries = 0; tries < 300; tries++) {
      const status = (await (await get(`/research/${apiRun}`, keyA)).json()).status;
      if (status === 'completed') return;
      expect(['queued', 'running']).toContain(status);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    throw new Error('the run did not complete');
  }, 60_000);

  afterAll(async () => {
    await server?.stop();
  });

  it('GET /v1/runs/{id}/evidence: claims and sources as read, for the run owner only', async () => {
    const answer = await get(`/runs/${apiRun}/evidence`, keyA);
    expect(answer.status).toBe(200);
    const evidence = await answer.json();
    expect(evidence).toMatchObject({ object: 'run.evidence', run_id: apiRun, question: researchTopic });
    expect(evidence.claims).toHaveLength(3);
    expect(evidence.claims[0]).toMatchObject({ url: ehpa, verified: true, source: 1 });
    expect(evidence.sources.map((source: { url: string }) => source.url)).toEqual([ehpa, ieaUrl]);
    expect(evidence.sources[0].accessed_at.slice(0, 10)).toBe(today);
    // Another key's run does not exist for it; nor does the CLI's run (owner local) for a key.
    for (const path of [
      `/runs/${apiRun}/evidence`,
      `/runs/${apiRun}/sources/1`,
      `/research/${apiRun}/evidence?format=ris`,
    ]) {
      const other = await get(path, keyB);
      expect(other.status, path).toBe(404);
      expect((await other.json()).error.code).toBe('run_not_found');
    }
    expect((await get(`/runs/${runId}/evidence`, keyA)).status).toBe(404);
  });

  it('?format= serves a citation file with its type and name; a bad one is a 400 listing the formats', async () => {
    const types = {
      'csl-json': 'application/vnd.citationstyles.csl+json',
      bibtex: 'application/x-bibtex',
      ris: 'application/x-research-info-systems',
    };
    for (const [format, type] of Object.entries(types)) {
      const file = await get(`/runs/${apiRun}/evidence?format=${format}`, keyA);
      expect(file.status).toBe(200);
      expect(file.headers.get('content-type')).toContain(type);
      expect(file.headers.get('content-disposition')).toMatch(
        /^attachment; filename="deepsearch-.+-sources\.(json|bib|ris)"$/,
      );
      const items = new Cite(await file.text()).data;
      expect(items.map((item) => item.URL).sort()).toEqual([ehpa, ieaUrl].sort());
    }
    const bad = await get(`/runs/${apiRun}/evidence?format=docx`, keyA);
    expect(bad.status).toBe(400);
    expect((await bad.json()).error).toMatchObject({
      type: 'invalid_request_error',
      code: 'invalid_value',
      message: 'format must be one of csl-json, bibtex, ris (got "docx")',
    });
  });

  it('GET /v1/runs/{id}/sources/{n}: the snapshot text with the quote offsets; out of range is a 404', async () => {
    pages['/iea'] = { status: 404, html: '<p>gone</p>' };
    const answer = await get(`/runs/${apiRun}/sources/3`, keyA);
    expect(answer.status).toBe(200);
    const source = await answer.json();
    expect(source).toMatchObject({ object: 'run.source', n: 3, url: ieaUrl, status: 200 });
    expect(source.text).toContain(heatPumpTexts.iea);
    expect(source.text.slice(source.quote_start, source.quote_end)).toBe(
      'In 2023 heat pump sales in Europe declined by 7 percent',
    );
    const missing = await get(`/runs/${apiRun}/sources/12`, keyA);
    expect(missing.status).toBe(404);
    expect((await missing.json()).error.code).toBe('source_not_found');
    pages['/iea'] = iea;
  });
});
