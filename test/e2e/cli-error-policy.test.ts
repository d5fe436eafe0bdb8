import { createServer } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FakeHttpServer } from '../../src/testing/fake-http-server.js';
import { startFakeOpenAi } from '../../src/testing/fake-openai-server.js';
import { oscarsPage } from '../helpers/agent-harness.js';
import { startFakeSearxng } from '../helpers/fake-searxng-server.js';
import { startFakeWeb } from '../helpers/fake-web-server.js';
import { passingEvaluation } from '../helpers/passing-evaluation.js';
import { runBuiltCli } from '../helpers/run-built-cli.js';

const question = 'Which film won Best Picture at the 91st Academy Awards?';
let web: FakeHttpServer;
let searxng: FakeHttpServer;

beforeAll(async () => {
  web = await startFakeWeb({ pages: { '/oscars': { html: oscarsPage } } });
  searxng = await startFakeSearxng({
    results: {
      'Best Picture 2019': [
        { url: `${web.url}/oscars`, title: '91st Academy Awards', content: 'Green Book won Best Picture.' },
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
const serverError = { status: 500, message: 'upstream exploded' };

/** A port nothing listens on: the "search server down" case. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

describe('the error policy from the built CLI', () => {
  it('a mid-run LLM call that fails every attempt is a warning; the run still answers with exit 0', async () => {
    const llm = await startFakeOpenAi({
      routes: {
        agent_action: [
          reply({ think: 'Search.', action: 'search', search: { queries: ['Best Picture 2019'] } }),
          // Step 2: the call and its one retry both fail.
          serverError,
          serverError,
          reply({
            think: 'Answer.',
            action: 'answer',
            answer: {
              text: 'Green Book won Best Picture[^1].',
              references: [{ url: `${web.url}/oscars`, quote: 'Green Book won Best Picture.' }],
            },
          }),
        ],
        ...passingEvaluation(reply, 'Direct.'),
      },
    });
    try {
      const run = await runBuiltCli(
        ['ask', question, '--json', '--no-query-rewrite', '--allow-private-network'],
        {
          DEEPSEARCH_LLM_BASE_URL: `${llm.url}/v1`,
          DEEPSEARCH_LLM_MODEL: 'fake-model',
          DEEPSEARCH_LLM_MAX_RETRIES: '1',
          DEEPSEARCH_SEARCH_PROVIDER: 'searxng',
          DEEPSEARCH_SEARXNG_URL: searxng.url,
        },
      );
      expect(run.code).toBe(0);
      const output = JSON.parse(run.stdout);
      expect(output.answer).toContain('Green Book');
      expect(output.confidence).toBe('high');
      expect(output.warnings.some((warning: string) => warning.startsWith('step 2 failed'))).toBe(true);
      expect(run.stderr).toContain('step 2 failed');
      llm.assertConsumed();
    } finally {
      await llm.close();
    }
  });

  it('with the search server down it exits 3 at once, naming the search provider', async () => {
    const llm = await startFakeOpenAi({
      routes: {
        agent_action: [
          reply({ think: 'Search.', action: 'search', search: { queries: ['Best Picture 2019'] } }),
        ],
      },
    });
    try {
      const run = await runBuiltCli(['ask', question, '--no-query-rewrite', '--allow-private-network'], {
        DEEPSEARCH_LLM_BASE_URL: `${llm.url}/v1`,
        DEEPSEARCH_LLM_MODEL: 'fake-model',
        DEEPSEARCH_SEARCH_PROVIDER: 'searxng',
        DEEPSEARCH_SEARXNG_URL: `http://127.0.0.1:${await closedPort()}`,
      });
      expect(run.code).toBe(3);
      expect(run.stderr.toLowerCase()).toContain('searxng');
      expect(run.stdout).toBe('');
      // One agent call, then the search fails: no more LLM calls, no "could not find" answer.
      // The context-window probe's GETs aside, one chat request: the run stopped after the search.
      expect(llm.requests.filter((request) => request.path === '/v1/chat/completions')).toHaveLength(1);
    } finally {
      await llm.close();
    }
  });
});
