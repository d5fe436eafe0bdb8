import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FakeHttpServer } from '../../src/testing/fake-http-server.js';
import {
  type FakeOpenAiReply,
  type FakeOpenAiRequest,
  type FakeOpenAiServer,
  startFakeOpenAi,
} from '../../src/testing/fake-openai-server.js';
import { startFakeSearxng } from '../helpers/fake-searxng-server.js';
import { startFakeWeb } from '../helpers/fake-web-server.js';
import {
  researchPlanReply,
  researchRoutes,
  researchSearxngResults,
  researchTopic,
  researchWebPages,
} from '../helpers/research-fake-llm.js';
import { runBuiltCli } from '../helpers/run-built-cli.js';
import { waitFor } from '../helpers/server-harness.js';

/** The second section: every agent call of its deep search is about its question. */
const outlook = 'What is the outlook for heat pumps in Europe?';
const plan = {
  ...researchPlanReply,
  sections: [...researchPlanReply.sections, { heading: 'Outlook', questions: [outlook] }],
};

let web: FakeHttpServer;
let searxng: FakeHttpServer;
let dir: string;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'deepsearch-research-resume-'));
  web = await startFakeWeb({ pages: researchWebPages });
  searxng = await startFakeSearxng({
    results: researchSearxngResults(web.url),
  });
});

afterAll(async () => {
  await Promise.all([web.close(), searxng.close()]);
  rmSync(dir, { recursive: true, force: true });
});

/** The research settings of the first process; the resume's environment says otherwise. */
const firstResearchEnv = {
  // One section at a time, one hop each: the first is gathered before the second starts.
  DEEPSEARCH_RESEARCH_CONCURRENCY: '1',
  DEEPSEARCH_RESEARCH_MAX_HOPS: '1',
  DEEPSEARCH_RESEARCH_WRITER_SHARE: '0.3',
};
const laterResearchEnv = {
  DEEPSEARCH_RESEARCH_CONCURRENCY: '4',
  DEEPSEARCH_RESEARCH_MAX_HOPS: '3',
  DEEPSEARCH_RESEARCH_WRITER_SHARE: '0.5',
};

function env(
  llm: FakeOpenAiServer,
  research: Record<string, string> = firstResearchEnv,
): Record<string, string> {
  return {
    DEEPSEARCH_LLM_BASE_URL: `${llm.url}/v1`,
    DEEPSEARCH_LLM_MODEL: 'fake-model',
    DEEPSEARCH_SEARCH_PROVIDER: 'searxng',
    DEEPSEARCH_SEARXNG_URL: searxng.url,
    DEEPSEARCH_ALLOW_PRIVATE_NETWORK: '1',
    ...research,
    DEEPSEARCH_NO_RUNS: '0',
    DEEPSEARCH_RUNS_FILE: join(dir, 'runs.sqlite'),
  };
}

const isOutlook = (request: FakeOpenAiRequest) => request.prompt.includes(outlook);
const agentCalls = (requests: FakeOpenAiRequest[]) =>
  requests.filter((request) => request.route === 'agent_action');

describe('deepsearch resume of a research run after SIGKILL (built CLI, real HTTP on 127.0.0.1)', () => {
  it('keeps the plan and the gathered section, researches the rest and writes the report', async () => {
    const routes = researchRoutes(web.url);
    const agent = routes.agent_action as (request: FakeOpenAiRequest) => FakeOpenAiReply;
    let killed = false;
    const llm = await startFakeOpenAi({
      routes: {
        ...routes,
        research_plan: () => ({
          content: JSON.stringify(plan),
          usage: { prompt_tokens: 900, completion_tokens: 60 },
        }),
        // The first process is killed while the second section's first agent call waits.
        agent_action: (request) => (!killed && isOutlook(request) ? { delayMs: 60_000 } : agent(request)),
      },
    });
    try {
      let child: ChildProcess | undefined;
      const first = runBuiltCli(['research', researchTopic, '--json'], env(llm), {
        timeoutMs: 60_000,
        onSpawn: (spawned) => {
          child = spawned;
        },
      });
      await waitFor(() => agentCalls(llm.requests).some(isOutlook), 30_000);
      child!.kill('SIGKILL');
      killed = true;
      expect((await first).code).not.toBe(0);
      const listed = await runBuiltCli(['runs', 'list', '--json'], env(llm));
      const [run] = JSON.parse(listed.stdout) as Array<{ id: string; status: string; mode: string }>;
      expect(run).toMatchObject({ status: 'interrupted', mode: 'research' });
      const status = await runBuiltCli(['runs', 'show', run!.id.slice(0, 8)], env(llm));
      expect(status.stdout).toMatch(/status\s+interrupted \(checkpoint after 1 section\(s\) gathered\)/);
      const beforeKill = llm.requests.length;
      const sectionOneCalls = agentCalls(llm.requests).filter((request) => !isOutlook(request)).length;
      expect(sectionOneCalls).toBeGreaterThan(0);
      expect(llm.requests.filter((request) => request.route === 'research_plan')).toHaveLength(1);

      // A budget raised now is the run's for the rest of it, and so is a research flag given now
      // (--writer-share); the research settings of today's environment are not: the run keeps
      // its own (one hop per section).
      const resumed = await runBuiltCli(
        ['resume', run!.id.slice(0, 8), '--json', '--max-tokens', '3000000', '--writer-share', '0.4'],
        env(llm, laterResearchEnv),
        {
          timeoutMs: 60_000,
        },
      );
      expect(resumed.stderr).not.toMatch(/error/i);
      expect(resumed.code).toBe(0);
      const report = JSON.parse(resumed.stdout);
      expect(report.runId).toBe(run!.id);
      expect(report.sections.map((section: { heading: string }) => section.heading)).toEqual([
        'Sales',
        'Outlook',
      ]);
      expect(report.markdown).toContain('## Outlook');
      expect(report.budget.maxTokens).toBe(3_000_000);

      const after = llm.requests.slice(beforeKill);
      // No planning call again, and no agent call of the section gathered before the kill.
      expect(after.filter((request) => request.route === 'research_plan')).toEqual([]);
      expect(agentCalls(after).length).toBeGreaterThan(0);
      expect(agentCalls(after).every(isOutlook)).toBe(true);
      // The writing happened once, after the resume: one writing call per section.
      expect(after.filter((request) => request.route === 'research_section')).toHaveLength(2);

      const exported = await runBuiltCli(['runs', 'export', run!.id, '--format', 'json'], env(llm));
      const { run: stored, events } = JSON.parse(exported.stdout) as {
        run: {
          settings: { research: { concurrency: number; maxHops: number; writerShare: number } };
          status: string;
          result: { markdown: string };
          usage: { byRole: Record<string, { calls: number }> };
        };
        events: Array<{
          seq: number;
          type: string;
          runId: string;
          message?: string;
          hop?: number;
          section?: string;
          covered?: string[];
          missing?: string[];
          evidence?: Array<{ target: string; url: string; quote: string }>;
        }>;
      };
      expect(stored.status).toBe('completed');
      expect(stored.result.markdown).toBe(report.markdown);
      // One task-level sequence over both processes.
      expect(events.map((event) => event.seq)).toEqual(events.map((_, index) => index + 1));
      const taskEvents = events.filter((event) => event.runId === run!.id);
      expect(taskEvents.filter((event) => event.type === 'run-start')).toHaveLength(2);
      expect(events.at(-1)!.type).toBe('research-end');
      // The resumed process researched with the stored hops and the writer share given to resume.
      const planned = events.filter(
        (event) => event.type === 'persona' && /^researching \d+ section/.test(event.message ?? ''),
      );
      expect(planned.map((event) => event.message)).toEqual([
        'researching 2 section(s), 1 at a time, up to 1 hop(s) each; 30% of the budget is kept for writing',
        'researching 1 section(s), 1 at a time, up to 1 hop(s) each; 40% of the budget is kept for writing',
      ]);
      const hops = events.filter((event) => event.type === 'research-hop');
      expect(hops.every((event) => event.hop === 1)).toBe(true);
      // The librarian judged each section: the sales section covered by quotes from the pages read
      // (in the first process), the outlook left missing (the pages give none).
      const coverage = events.filter((event) => event.type === 'coverage');
      expect(coverage.map(({ section, covered, missing }) => ({ section, covered, missing }))).toEqual([
        {
          section: 's1',
          covered: ['How did heat pump sales in Europe change after 2022?', 'heat pump sales in 2023'],
          missing: [],
        },
        { section: 's2', covered: [], missing: [outlook] },
      ]);
      expect(coverage[0]!.evidence).toContainEqual({
        target: 'heat pump sales in 2023',
        url: `${web.url}/iea`,
        quote: 'In 2023 heat pump sales in Europe declined by 7 percent',
      });
      expect(stored.settings.research).toMatchObject({ concurrency: 1, maxHops: 1, writerShare: 0.4 });
      // Usage adds both processes: the first section's agent calls and those made after the resume.
      expect(stored.usage.byRole.agent!.calls).toBe(sectionOneCalls + agentCalls(after).length);
      const shownReport = await runBuiltCli(['runs', 'show', run!.id], env(llm));
      expect(shownReport.stdout).toContain('## Outlook');
      const markdown = await runBuiltCli(['runs', 'export', run!.id, '--format', 'md'], env(llm));
      expect(markdown.stdout).toContain('## Report');
      expect(markdown.stdout).toContain(report.markdown.trim().split('\n')[0]);
      // The replay prints the task's report, not the answer of its last section's deep search.
      const replay = await runBuiltCli(['replay', run!.id], env(llm));
      expect(replay.code).toBe(0);
      expect(replay.stdout).toBe(report.markdown);
    } finally {
      await llm.close();
    }
  }, 120_000);
});
