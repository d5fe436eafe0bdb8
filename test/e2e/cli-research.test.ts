import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FakeHttpServer } from '../../src/testing/fake-http-server.js';
import { type FakeOpenAiServer, startFakeOpenAi } from '../../src/testing/fake-openai-server.js';
import { startFakeSearxng } from '../helpers/fake-searxng-server.js';
import { startFakeWeb } from '../helpers/fake-web-server.js';
import { heatPumpTexts } from '../helpers/heat-pump-world.js';
import {
  researchRoutes,
  researchSearxngResults,
  researchTopic,
  researchWebPages,
} from '../helpers/research-fake-llm.js';
import { runBuiltCli } from '../helpers/run-built-cli.js';

let web: FakeHttpServer;
let searxng: FakeHttpServer;
let llm: FakeOpenAiServer;
let dir: string;

beforeAll(async () => {
  web = await startFakeWeb({ pages: researchWebPages });
  searxng = await startFakeSearxng({
    results: researchSearxngResults(web.url),
  });
  llm = await startFakeOpenAi({ routes: researchRoutes(web.url) });
  dir = await mkdtemp(join(tmpdir(), 'deepsearch-research-'));
});

afterAll(async () => {
  await Promise.all([web.close(), searxng.close(), llm.close()]);
  await rm(dir, { recursive: true, force: true });
});

function research(args: string[], env: Record<string, string> = {}) {
  return runBuiltCli(
    ['research', ...args, '--allow-private-network'],
    {
      DEEPSEARCH_LLM_BASE_URL: `${llm.url}/v1`,
      DEEPSEARCH_LLM_MODEL: 'fake-model',
      DEEPSEARCH_SEARCH_PROVIDER: 'searxng',
      DEEPSEARCH_SEARXNG_URL: searxng.url,
      ...env,
    },
    { timeoutMs: 60_000 },
  );
}

describe('deepsearch research (built CLI, real HTTP on 127.0.0.1)', () => {
  it('prints one JSON report whose footnotes resolve to quotes literally on the pages read', async () => {
    const run = await research([researchTopic, '--json']);
    expect(run.stderr).toMatch(
      /estimate: ~[\d.]+k tokens of 1M budget, ~\d+ min of 10 min, ~\d+ steps of \d+, ~\d+ LLM calls/,
    );
    expect(run.stderr).toContain('Synthesizer');
    expect(run.code).toBe(0);
    const report = JSON.parse(run.stdout);
    expect(report.title).toBe('European heat pump sales after 2022');
    expect(report.sections).toHaveLength(1);
    // The librarian found the section's question and data point in the pages read, after one hop.
    expect(run.stderr).toContain('after hop 1: 2 of 2 covered (100%)');
    expect(report.sections[0].coverage).toBe(1);
    expect(report.followUps).toHaveLength(3);
    // Every cited sentence is a claim: the one the model listed, the other of the section, the summary's.
    expect(report.factCheck).toEqual({ claims: 3, supported: 3, revised: 0, removed: 0 });
    expect(report.contradictions[0].sides.map((side: { claim: string }) => side.claim)).toEqual([
      'down 5%',
      'down 7%',
    ]);
    expect(report.references.length).toBeGreaterThanOrEqual(3);
    const pages: Record<string, string> = {
      [`${web.url}/ehpa`]: heatPumpTexts.ehpa,
      [`${web.url}/iea`]: heatPumpTexts.iea,
    };
    for (const reference of report.references) expect(pages[reference.url]).toContain(reference.quote);
    const cited = new Set(
      [...report.markdown.matchAll(/\[\^(\d+)\](?!:)/g)].map((match: string[]) => Number(match[1])),
    );
    expect([...cited].sort()).toEqual(
      report.references.map((reference: { index: number }) => reference.index),
    );
    expect(report.markdown).toContain('```mermaid');
  });

  it('writes markdown with -o and a self-contained HTML page with --format html', async () => {
    const markdownRun = await research([researchTopic, '-o', join(dir, 'report.md'), '--quiet']);
    expect(markdownRun.code).toBe(0);
    expect(markdownRun.stdout).toBe('');
    const markdown = await readFile(join(dir, 'report.md'), 'utf8');
    expect(markdown).toMatch(/^# European heat pump sales after 2022\n/);
    expect(markdown).toContain('## Follow-up questions');
    expect(markdown).toContain('[^1]: "Heat pump sales in Europe reached 3 million units in 2022"');

    const htmlRun = await research([researchTopic, '--format', 'html', '-o', join(dir, 'report.txt')]);
    expect(htmlRun.code).toBe(0);
    expect(htmlRun.stderr).toContain(`report written to ${join(dir, 'report.txt')}`);
    const html = await readFile(join(dir, 'report.txt'), 'utf8');
    expect(html).toMatch(/^<!doctype html>/);
    expect(html).toContain('<a href="#ref-1">1</a>');
    expect(html).not.toMatch(/<script|<link|src="http/);
  });

  it('prints an editable outline with --outline-only, then researches the edited outline', async () => {
    // With the run store on: planning only is no run (not a "cancelled" one in runs list).
    const runs = { DEEPSEARCH_NO_RUNS: '0', DEEPSEARCH_RUNS_FILE: join(dir, 'outline-runs.sqlite') };
    const outlineRun = await research([researchTopic, '--outline-only'], runs);
    expect(outlineRun.code).toBe(0);
    expect(JSON.parse((await runBuiltCli(['runs', 'list', '--json'], runs)).stdout)).toEqual([]);
    expect(outlineRun.stdout).toContain('## Sales\n\n- How did heat pump sales in Europe change after 2022?');
    const edited = outlineRun.stdout
      .replace('## Sales', '## Heat pump sales, 2022–2023')
      .replace('# European heat pump sales after 2022', '# Edited title');
    const file = join(dir, 'outline.md');
    await writeFile(file, edited);
    const before = llm.requests.filter((request) => request.route === 'research_plan').length;
    const run = await research(['--outline', file, '--json'], runs);
    expect(run.code).toBe(0);
    const report = JSON.parse(run.stdout);
    expect(report.title).toBe('Edited title');
    // Recorded as the CLI's run (not the library's).
    expect(JSON.parse((await runBuiltCli(['runs', 'list', '--json'], runs)).stdout)).toMatchObject([
      { source: 'cli', mode: 'research', evaluation: false },
    ]);
    expect(report.topic).toBe(researchTopic);
    expect(report.sections.map((section: { heading: string }) => section.heading)).toEqual([
      'Heat pump sales, 2022–2023',
    ]);
    // The edited outline is followed: no planning call.
    expect(llm.requests.filter((request) => request.route === 'research_plan').length).toBe(before);
  });

  it('names the section on every line of its deep search, sums up each section, and exports the steps by section', async () => {
    const file = join(dir, 'three-sections.md');
    await writeFile(
      file,
      [
        '# European heat pumps after 2022',
        `Topic: ${researchTopic}`,
        '## Sales',
        '- How did heat pump sales in Europe change after 2022?',
        '- Data point (web-search): heat pump sales in 2023',
        '## Prices',
        '- What did heat pumps cost in 2023?',
        '## Outlook',
        '- What is the outlook for heat pump sales?',
      ].join('\n'),
    );
    const runs = { DEEPSEARCH_NO_RUNS: '0', DEEPSEARCH_RUNS_FILE: join(dir, 'sections-runs.sqlite') };
    const run = await research(['--outline', file, '-o', join(dir, 'three-sections-report.md')], runs);
    expect(run.code).toBe(0);
    const lines = run.stderr.split('\n');
    // The three sections' steps interleave; each line says whose it is.
    const count = (pattern: RegExp) => lines.filter((line) => pattern.test(line)).length;
    for (const section of ['s1', 's2', 's3']) {
      expect(
        count(new RegExp(`^\\[${section}·1\\] search \\([\\d.k]+ prompt tokens\\) Search first\\.$`)),
      ).toBe(1);
      expect(count(new RegExp(`^  ${section} ↳ "European heat pump sales" → 2 results, \\d new URLs$`))).toBe(
        1,
      );
      expect(count(new RegExp(`^  ${section} ✓ ${web.url}/(ehpa|iea) `))).toBe(2);
      expect(count(new RegExp(`^\\[${section}·3\\] answer `))).toBe(1);
    }
    // No step, search, read or check line without its section (task-level warnings and retries may be).
    expect(lines.filter((line) => /^\[\d|^ {4}(↳ "|✓|✗|\d)/.test(line))).toEqual([]);
    const summary = run.stderr.trimEnd().split('\n').slice(-4);
    expect(summary[0]).toMatch(
      /^3 sections, \d+ sources, fact-check 3\/3 supported \(0 revised, 0 removed\), [\d.]+k tokens, \d+ s$/,
    );
    expect(summary.slice(1)).toEqual([
      '  s1 Sales: 2 of 2 covered, 2 sources',
      '  s2 Prices: 0 of 1 covered, 2 sources',
      '  s3 Outlook: 1 of 1 covered, 2 sources',
    ]);

    const [stored] = JSON.parse((await runBuiltCli(['runs', 'list', '--json'], runs)).stdout);
    const exported = await runBuiltCli(['runs', 'export', stored.id, '--format', 'md'], runs);
    expect(exported.code).toBe(0);
    const timeline = exported.stdout.slice(exported.stdout.indexOf('## Timeline'));
    const sectionOf = (heading: string) => {
      const start = timeline.indexOf(heading);
      const end = timeline.indexOf('\n### ', start + 1);
      return timeline.slice(start, end === -1 ? undefined : end);
    };
    for (const heading of ['### s1 Sales', '### s2 Prices', '### s3 Outlook']) {
      const section = sectionOf(heading);
      expect(section).toContain('- hop 1: ');
      expect(section.match(/^- step \d: /gm)).toEqual(['- step 1: ', '- step 2: ', '- step 3: ']);
      expect(section).toContain(`  - read <${web.url}/ehpa>`);
      expect(section).toMatch(/- after hop 1: \d of \d covered/);
      expect(section).toContain('- written, citing 2 sources');
    }
    expect(sectionOf('### s2 Prices')).toContain('missing: What did heat pumps cost in 2023?');
  });

  it('refuses a malformed outline and bad flags with one clear line', async () => {
    const file = join(dir, 'bad.md');
    await writeFile(file, '# Title\nTopic: t\n## Empty section\n');
    const bad = await research(['--outline', file]);
    expect(bad.code).not.toBe(0);
    expect(bad.stderr).toContain(`${file} line 3: section "Empty section" has no question`);
    const both = await research(['topic', '--json', '--format', 'md']);
    expect(both.code).not.toBe(0);
    expect(both.stderr).toContain('--json and --format md disagree');
    const missing = await research(['--outline', join(dir, 'nope.md')]);
    expect(missing.stderr).toContain('cannot read the outline');
    // An -o file that cannot be written fails before planning, not after the whole research.
    const calls = llm.requests.length;
    const unwritable = await research([researchTopic, '-o', join(dir, 'no-such-folder', 'report.md')]);
    expect(unwritable.code).toBe(2);
    expect(unwritable.stderr.trim().split('\n')).toEqual([
      `deepsearch: error: cannot write -o ${join(dir, 'no-such-folder', 'report.md')}: no folder ${join(dir, 'no-such-folder')}`,
    ]);
    const folder = await research(['--outline-only', researchTopic, '-o', dir]);
    expect(folder.code).toBe(2);
    expect(folder.stderr).toContain(`cannot write -o ${dir}: it is a folder`);
    expect(llm.requests.length).toBe(calls);
  });
});
