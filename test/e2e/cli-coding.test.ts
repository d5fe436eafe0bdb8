import { execFileSync } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FakeHttpServer } from '../../src/testing/fake-http-server.js';
import { startFakeOpenAi } from '../../src/testing/fake-openai-server.js';
import { startFakeSearxng } from '../helpers/fake-searxng-server.js';
import { startFakeWeb } from '../helpers/fake-web-server.js';
import { passingEvaluation } from '../helpers/passing-evaluation.js';
import { runBuiltCli } from '../helpers/run-built-cli.js';
import { serveBuiltCli } from '../helpers/serve-built-cli.js';

const tablePage = `<html><head><title>Nordic countries by population</title></head><body><article>
<h1>Nordic countries by population</h1>
<p>The table lists the population of each Nordic country in 2024, in millions.</p>
<table><thead><tr><th>Country</th><th>Population (millions)</th></tr></thead><tbody>
<tr><td>Sweden</td><td>10.6</td></tr><tr><td>Denmark</td><td>6.0</td></tr><tr><td>Finland</td><td>5.6</td></tr>
<tr><td>Norway</td><td>5.5</td></tr><tr><td>Iceland</td><td>0.4</td></tr>
</tbody></table></article></body></html>`;

const sumTable = `const rows = input.pages[0].tables[0].split('\\n').slice(2).map((line) => line.split('|').slice(1, -1));
return Math.round(rows.reduce((sum, [, value]) => sum + Number(value), 0) * 10) / 10;`;

let web: FakeHttpServer;
let searxng: FakeHttpServer;

beforeAll(async () => {
  web = await startFakeWeb({ pages: { '/nordic': { html: tablePage } } });
  searxng = await startFakeSearxng({
    results: {
      'Nordic population': [
        { url: `${web.url}/nordic`, title: 'Nordic countries', content: 'Population table.' },
      ],
    },
  });
});

afterAll(async () => {
  await web.close();
  await searxng.close();
});

const reply = (object: unknown) => ({
  content: JSON.stringify(object),
  usage: { prompt_tokens: 1000, completion_tokens: 50 },
});

/** Search, read the table, sum it in code, answer: what the fake LLM says for the question. */
const codingRoutes = () => ({
  agent_action: [
    reply({ think: 'Search.', action: 'search', search: { queries: ['Nordic population'] } }),
    reply({ think: 'Read.', action: 'visit', visit: { targets: [`${web.url}/nordic`] } }),
    reply({
      think: 'Sum it.',
      action: 'coding',
      coding: { code: sumTable, purpose: 'Total population' },
    }),
    reply({
      think: 'Done.',
      action: 'answer',
      answer: {
        text: 'About 28.1 million people live in the Nordic countries[^1].',
        references: [
          {
            url: `${web.url}/nordic`,
            quote: 'The table lists the population of each Nordic country in 2024, in millions.',
          },
        ],
      },
    }),
  ],
  ...passingEvaluation(reply, 'Direct.'),
});

const question = 'How many people live in the Nordic countries?';

/** Child processes of a process, with their command lines (the sandbox host, extraction processes). */
function children(pid: number): Array<{ pid: number; args: string }> {
  try {
    const out = execFileSync('ps', ['-o', 'pid=,args=', '--ppid', String(pid)], { encoding: 'utf8' });
    return out
      .split('\n')
      .filter((line) => line.trim())
      .map((line) => {
        const [, pid, args] = /^\s*(\d+)\s+(.*)$/.exec(line)!;
        return { pid: Number(pid), args: args! };
      });
  } catch {
    return [];
  }
}

function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

describe('deepsearch ask with the coding action (built CLI)', () => {
  it('shows the code and its result in progress, and lists the computation in --json', async () => {
    const llm = await startFakeOpenAi({ routes: codingRoutes() });
    try {
      const run = await runBuiltCli(['ask', question, '--json', '--allow-private-network'], {
        DEEPSEARCH_LLM_BASE_URL: `${llm.url}/v1`,
        DEEPSEARCH_LLM_MODEL: 'fake-model',
        DEEPSEARCH_SEARCH_PROVIDER: 'searxng',
        DEEPSEARCH_SEARXNG_URL: searxng.url,
        DEEPSEARCH_QUERY_REWRITE: 'false',
      });
      expect(run.code).toBe(0);
      expect(run.stderr).toContain('↳ code: Total population');
      expect(run.stderr).toContain('const rows = input.pages[0].tables[0]');
      expect(run.stderr).toContain('result: 28.1');
      const output = JSON.parse(run.stdout);
      expect(output.computations).toEqual([
        { step: 3, purpose: 'Total population', code: sumTable, result: '28.1' },
      ]);
      expect(output.answer).toContain('28.1 million');
      expect(output.warnings).toEqual([]);
      llm.assertConsumed();
    } finally {
      await llm.close();
    }
  });

  it('serves a question that runs code, keeps one sandbox process, and stops it on SIGTERM', async () => {
    const llm = await startFakeOpenAi({ routes: codingRoutes() });
    const server = await serveBuiltCli({
      DEEPSEARCH_LLM_BASE_URL: `${llm.url}/v1`,
      DEEPSEARCH_LLM_MODEL: 'fake-model',
      DEEPSEARCH_SEARCH_PROVIDER: 'searxng',
      DEEPSEARCH_SEARXNG_URL: searxng.url,
      DEEPSEARCH_QUERY_REWRITE: 'false',
      DEEPSEARCH_ALLOW_PRIVATE_NETWORK: 'true',
      DEEPSEARCH_NO_RUNS: '1',
    });
    let hosts: number[] = [];
    try {
      const response = await fetch(`${server.url}/v1/chat/completions`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ model: 'deepsearch', messages: [{ role: 'user', content: question }] }),
      });
      expect(response.status).toBe(200);
      const body = (await response.json()) as { choices: Array<{ message: { content: string } }> };
      expect(body.choices[0]!.message.content).toContain('28.1 million');
      llm.assertConsumed();
      // The code ran in a child of the server, which stays for the next run (beside the
      // extraction processes that parsed the page); all of them end with the server.
      const running = children(server.child.pid!);
      expect(running.filter((child) => child.args.includes('sandbox-host-main'))).toHaveLength(1);
      hosts = running.map((child) => child.pid);
    } finally {
      await expect(server.stop()).resolves.toBe(0);
      await llm.close();
    }
    for (let tries = 0; tries < 200 && hosts.some(isRunning); tries++) {
      await new Promise((done) => setTimeout(done, 25));
    }
    expect(hosts.filter(isRunning)).toEqual([]);
  });
});
