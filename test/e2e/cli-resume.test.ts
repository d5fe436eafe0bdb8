import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FakeHttpServer } from '../../src/testing/fake-http-server.js';
import {
  type FakeOpenAiReply,
  type FakeOpenAiServer,
  startFakeOpenAi,
} from '../../src/testing/fake-openai-server.js';
import { oscarsPage, parasitePage } from '../helpers/agent-harness.js';
import { startFakeSearxng } from '../helpers/fake-searxng-server.js';
import { startFakeWeb } from '../helpers/fake-web-server.js';
import { passingEvaluation } from '../helpers/passing-evaluation.js';
import { cliPath, runBuiltCli } from '../helpers/run-built-cli.js';
import { waitFor } from '../helpers/server-harness.js';

const question = 'Who directed the film that won Best Picture the year Parasite premiered?';
let web: FakeHttpServer;
let searxng: FakeHttpServer;
let dir: string;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'deepsearch-resume-'));
  web = await startFakeWeb({
    pages: { '/parasite': { html: parasitePage }, '/oscars': { html: oscarsPage } },
  });
  searxng = await startFakeSearxng({
    results: {
      'Parasite premiere': [
        { url: `${web.url}/parasite`, title: 'Parasite (2019 film)', content: 'Cannes 2019.' },
      ],
      'Best Picture 2019': [
        { url: `${web.url}/oscars`, title: '91st Academy Awards', content: 'Green Book.' },
      ],
    },
  });
});

afterAll(async () => {
  await web.close();
  await searxng.close();
  rmSync(dir, { recursive: true, force: true });
});

const reply = (object: unknown): FakeOpenAiReply => ({
  content: JSON.stringify(object),
  usage: { prompt_tokens: 1000, completion_tokens: 50 },
});

/** search, visit, then (first process) a reply that never comes, (resumed process) the answer. */
function agentReplies(): (request: { index: number }) => FakeOpenAiReply {
  let calls = 0;
  return () => {
    calls++;
    if (calls === 1)
      return reply({
        think: 'Find both facts.',
        action: 'search',
        search: { queries: ['Parasite premiere', 'Best Picture 2019'] },
      });
    if (calls === 2)
      return reply({
        think: 'Read both.',
        action: 'visit',
        visit: { targets: [`${web.url}/parasite`, `${web.url}/oscars`] },
      });
    // The process is killed while it waits for this one.
    if (calls === 3) return { delayMs: 60_000 };
    return reply({
      think: 'Both facts are on the pages read.',
      action: 'answer',
      answer: {
        text: 'Peter Farrelly: his Green Book won Best Picture[^1] in 2019, when Parasite premiered[^2].',
        references: [
          {
            url: `${web.url}/oscars`,
            quote: 'Green Book won Best Picture. The film was directed by Peter Farrelly.',
          },
          { url: `${web.url}/parasite`, quote: 'premiered at the 2019 Cannes Film Festival on 21 May 2019' },
        ],
      },
    });
  };
}

/** The fake LLM of a run that searches, reads and answers, then passes one definitive check. */
function startResumableLlm(): Promise<FakeOpenAiServer> {
  return startFakeOpenAi({
    routes: {
      agent_action: agentReplies(),
      ...passingEvaluation(reply),
    },
  });
}

function env(llm: FakeOpenAiServer): Record<string, string> {
  return {
    DEEPSEARCH_LLM_BASE_URL: `${llm.url}/v1`,
    DEEPSEARCH_LLM_MODEL: 'fake-model',
    DEEPSEARCH_SEARCH_PROVIDER: 'searxng',
    DEEPSEARCH_SEARXNG_URL: searxng.url,
    DEEPSEARCH_QUERY_REWRITE: '0',
    DEEPSEARCH_ALLOW_PRIVATE_NETWORK: '1',
    DEEPSEARCH_NO_RUNS: '0',
    DEEPSEARCH_RUNS_FILE: join(dir, 'runs.sqlite'),
  };
}

describe('deepsearch resume after SIGKILL (built CLI, real HTTP on 127.0.0.1)', () => {
  it('goes on from the last checkpoint: the answer arrives and no LLM call, search or read done before the kill is made again', async () => {
    const llm = await startResumableLlm();
    try {
      const child = spawn(process.execPath, [cliPath, 'ask', question], {
        env: {
          PATH: process.env.PATH ?? '',
          NO_COLOR: '1',
          DEEPSEARCH_NO_CACHE: '1',
          DEEPSEARCH_LOCAL_LLM_URLS: 'off',
          ...env(llm),
        },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      const exited = new Promise<NodeJS.Signals | null>((resolve) =>
        child.once('exit', (_code, signal) => resolve(signal)),
      );
      // The third agent call hangs: steps 1 (search) and 2 (visit) are done and checkpointed.
      await waitFor(
        () => llm.requests.filter((request) => request.route === 'agent_action').length === 3,
        20_000,
      );
      child.kill('SIGKILL');
      expect(await exited).toBe('SIGKILL');
      const beforeKill = llm.requests.length;
      const searchesBefore = searxng.requests.length;
      const readsBefore = web.requests.filter((request) => request.path !== '/robots.txt').length;
      expect(readsBefore).toBe(2);

      const listed = await runBuiltCli(['runs', 'list', '--json'], env(llm));
      expect(listed.code).toBe(0);
      const [run] = JSON.parse(listed.stdout) as Array<{ id: string; status: string; question: string }>;
      expect(run).toMatchObject({ status: 'interrupted', question });
      const shown = await runBuiltCli(['runs', 'show', run!.id.slice(0, 8)], env(llm));
      expect(shown.stdout).toMatch(/status\s+interrupted \(checkpoint after step 2\)/);

      const resumed = await runBuiltCli(['resume', run!.id.slice(0, 8), '--json'], env(llm));
      expect(resumed.stderr).not.toContain('error');
      expect(resumed.code).toBe(0);
      const result = JSON.parse(resumed.stdout);
      expect(result.runId).toBe(run!.id);
      expect(result.answer).toContain('Peter Farrelly');
      expect(result.references).toHaveLength(2);
      expect(result.steps).toBe(3);

      // After the kill: one agent call (the step that was cut), the criteria and one evaluation.
      // (Requests without a route are the context-window probes each process makes.)
      const after = llm.requests
        .slice(beforeKill)
        .flatMap((request) => (request.route ? [request.route] : []));
      expect(after).toEqual(['agent_action', 'evaluation_criteria', 'evaluate_definitive']);
      // The resumed call's prompt knows what was read before the kill.
      const resumedCall = llm.requests.slice(beforeKill).find((request) => request.route === 'agent_action')!;
      expect(resumedCall.prompt).toContain('Peter Farrelly');
      expect(searxng.requests.length).toBe(searchesBefore);
      expect(web.requests.filter((request) => request.path !== '/robots.txt').length).toBe(readsBefore);

      const exported = await runBuiltCli(['runs', 'export', run!.id, '--format', 'json'], env(llm));
      const { run: stored, events } = JSON.parse(exported.stdout) as {
        run: { status: string; usage: { byRole: Record<string, { calls: number }> } };
        events: Array<{ seq: number; type: string }>;
      };
      expect(stored.status).toBe('completed');
      expect(events.map((event) => event.seq)).toEqual(events.map((_, index) => index + 1));
      expect(events.filter((event) => event.type === 'run-start')).toHaveLength(2);
      expect(events.at(-1)!.type).toBe('run-end');
      // Usage adds both processes: three agent calls answered (search, visit, answer).
      expect(stored.usage.byRole.agent!.calls).toBe(3);
    } finally {
      await llm.close();
    }
  }, 60_000);

  it('after Ctrl-C names the command that goes on with the run, and that command answers', async () => {
    const llm = await startResumableLlm();
    try {
      // A run store of its own: the replay test below reads the one run of the shared store.
      const ownStore = { ...env(llm), DEEPSEARCH_RUNS_FILE: join(dir, 'interrupted-runs.sqlite') };
      const interrupted = await runBuiltCli(['ask', question, '--quiet'], ownStore, {
        onSpawn: (child) => {
          // The third agent call hangs: steps 1 and 2 are checkpointed.
          const poll = setInterval(() => {
            if (llm.requests.filter((request) => request.route === 'agent_action').length < 3) return;
            clearInterval(poll);
            child.kill('SIGINT');
          }, 20);
        },
      });
      expect(interrupted.code).toBe(130);
      const hint = /deepsearch resume ([0-9a-f-]{36}) goes on from its last checkpoint/.exec(
        interrupted.stderr,
      );
      expect(hint, interrupted.stderr).not.toBeNull();
      const resumed = await runBuiltCli(['resume', hint![1]!, '--json'], ownStore);
      expect(resumed.code).toBe(0);
      expect(JSON.parse(resumed.stdout)).toMatchObject({ runId: hint![1] });
      expect(JSON.parse(resumed.stdout).answer).toContain('Peter Farrelly');
    } finally {
      await llm.close();
    }
  }, 60_000);

  it('replays a stored run with no network, and exports it as markdown; unknown ids fail in one line', async () => {
    const listed = await runBuiltCli(
      ['runs', 'list', '--json'],
      env({ url: 'http://127.0.0.1:9' } as FakeOpenAiServer),
    );
    const [run] = JSON.parse(listed.stdout) as Array<{ id: string }>;
    const offline = {
      ...env({ url: 'http://127.0.0.1:9' } as FakeOpenAiServer),
      DEEPSEARCH_SEARXNG_URL: 'http://127.0.0.1:9',
    };
    const replay = await runBuiltCli(['replay', run!.id], offline);
    expect(replay.code).toBe(0);
    expect(replay.stderr).toContain('[1] search');
    expect(replay.stderr).toContain('"Parasite premiere", "Best Picture 2019" → 2 results');
    expect(replay.stderr).toContain(`✓ ${web.url}/oscars`);
    expect(replay.stdout).toContain('Peter Farrelly');
    expect(replay.stdout).toContain('Sources');
    const markdown = await runBuiltCli(['runs', 'export', run!.id, '--format', 'md'], offline);
    expect(markdown.stdout).toContain(`# ${question}`);
    expect(markdown.stdout).toContain('## Sources');
    expect(markdown.stdout).toContain('step 1: **search**');
    const missing = await runBuiltCli(['runs', 'show', 'nope'], offline);
    expect(missing.code).toBe(2);
    expect(missing.stderr.trim()).toBe(
      "deepsearch: error: no run 'nope' (deepsearch runs list shows the runs kept)",
    );
    const badFormat = await runBuiltCli(['runs', 'export', run!.id, '--format', 'pdf'], offline);
    expect(badFormat.code).toBe(2);
    const deleted = await runBuiltCli(['runs', 'delete', run!.id], offline);
    expect(deleted.code).toBe(0);
    expect(JSON.parse((await runBuiltCli(['runs', 'list', '--json'], offline)).stdout)).toEqual([]);
  }, 60_000);
});
