import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FakeHttpServer } from '../../src/testing/fake-http-server.js';
import { type FakeOpenAiReply, startFakeOpenAi } from '../../src/testing/fake-openai-server.js';
import { oscarsPage } from '../helpers/agent-harness.js';
import { startFakeSearxng } from '../helpers/fake-searxng-server.js';
import { startFakeWeb } from '../helpers/fake-web-server.js';
import { passingEvaluation } from '../helpers/passing-evaluation.js';
import { cliPath, runBuiltCli } from '../helpers/run-built-cli.js';
import { waitFor } from '../helpers/server-harness.js';

const question = 'Which film won Best Picture at the 91st Academy Awards?';
const key = 'sk-resume-4f9a2b7c1d8e6f3a0b5c';
let web: FakeHttpServer;
let searxng: FakeHttpServer;
let dir: string;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'deepsearch-resume-settings-'));
  web = await startFakeWeb({ pages: { '/oscars': { html: oscarsPage } } });
  searxng = await startFakeSearxng({
    results: {
      'Best Picture 2019': [{ url: `${web.url}/oscars`, title: '91st Academy Awards', content: 'x' }],
    },
  });
});
afterAll(async () => {
  await web.close();
  await searxng.close();
  rmSync(dir, { recursive: true, force: true });
});

const reply = (object: unknown): FakeOpenAiReply => ({ content: JSON.stringify(object) });

/** Search, then (first process) a reply that never comes, then (resumed) the answer. */
function agentReplies(): () => FakeOpenAiReply {
  let calls = 0;
  return () => {
    calls++;
    if (calls === 1)
      return reply({
        think: 'Search.',
        step: { action: 'search', search: { queries: ['Best Picture 2019'] } },
      });
    if (calls === 2) return { delayMs: 60_000 };
    return reply({
      think: 'Found.',
      step: {
        action: 'answer',
        answer: {
          text: 'Green Book[^1].',
          references: [{ url: `${web.url}/oscars`, quote: 'Green Book won Best Picture.' }],
        },
      },
    });
  };
}

const startLlm = () =>
  startFakeOpenAi({ apiKey: key, routes: { agent_action: agentReplies(), ...passingEvaluation(reply) } });

/** The original run: its LLM, model and SearXNG given as flags, which resume will not be given. */
const askWithFlags = (llmUrl: string) => [
  'ask',
  question,
  '--llm-base-url',
  `${llmUrl}/v1`,
  '--llm-model',
  'run-model',
  '--searxng-url',
  searxng.url,
];

/** Only the run store and the key in the environment: everything else comes as flags. */
const bareEnv = (runsFile: string) => ({
  DEEPSEARCH_NO_RUNS: '0',
  DEEPSEARCH_RUNS_FILE: runsFile,
  DEEPSEARCH_LLM_API_KEY: key,
  DEEPSEARCH_QUERY_REWRITE: '0',
  DEEPSEARCH_ALLOW_PRIVATE_NETWORK: '1',
});

describe('deepsearch resume with the settings the run ran with (built CLI)', () => {
  it('uses the stored LLM, model and SearXNG when given none of the original flags, and never stores the key', async () => {
    const llm = await startLlm();
    const runsFile = join(dir, 'runs.sqlite');
    const bare = bareEnv(runsFile);
    try {
      const child = spawn(process.execPath, [cliPath, ...askWithFlags(llm.url)], {
        env: {
          PATH: process.env.PATH ?? '',
          NO_COLOR: '1',
          DEEPSEARCH_NO_CACHE: '1',
          DEEPSEARCH_LOCAL_LLM_URLS: 'off',
          ...bare,
        },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      const exited = new Promise((resolve) => child.once('exit', resolve));
      await waitFor(
        () => llm.requests.filter((request) => request.route === 'agent_action').length === 2,
        20_000,
      );
      child.kill('SIGKILL');
      await exited;
      const stored = [runsFile, `${runsFile}-wal`]
        .filter((file) => existsSync(file))
        .map((file) => readFileSync(file).toString('latin1'))
        .join('');
      expect(stored).toContain(`${llm.url}/v1`);
      expect(stored).not.toContain(key);

      const listed = JSON.parse((await runBuiltCli(['runs', 'list', '--json'], bare)).stdout) as Array<{
        id: string;
      }>;
      const searchesBefore = searxng.requests.length;
      const resumed = await runBuiltCli(['resume', listed[0]!.id, '--json'], bare);
      expect(resumed.stderr).not.toMatch(/error|DuckDuckGo/);
      expect(resumed.code).toBe(0);
      expect(JSON.parse(resumed.stdout).answer).toContain('Green Book');
      const after = llm.requests.filter((request) => request.route === 'agent_action').at(-1)!;
      expect(after.json?.model).toBe('run-model');
      expect(after.headers.authorization).toBe(`Bearer ${key}`);
      expect(searxng.requests.length).toBe(searchesBefore);
    } finally {
      await llm.close();
    }
  }, 60_000);

  it('a flag given to resume wins over the stored setting', async () => {
    const llm = await startLlm();
    const bare = bareEnv(join(dir, 'override.sqlite'));
    try {
      const interrupted = await runBuiltCli([...askWithFlags(llm.url), '--quiet'], bare, {
        onSpawn: (child) => {
          const poll = setInterval(() => {
            if (llm.requests.filter((request) => request.route === 'agent_action').length < 2) return;
            clearInterval(poll);
            child.kill('SIGINT');
          }, 20);
        },
      });
      expect(interrupted.code).toBe(130);
      const id = /deepsearch resume ([0-9a-f-]{36})/.exec(interrupted.stderr)![1]!;
      const resumed = await runBuiltCli(['resume', id, '--json', '--llm-model', 'other-model'], bare);
      expect(resumed.code).toBe(0);
      expect(llm.requests.filter((request) => request.route === 'agent_action').at(-1)!.json?.model).toBe(
        'other-model',
      );
    } finally {
      await llm.close();
    }
  }, 60_000);
});
