import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FakeHttpServer } from '../../src/testing/fake-http-server.js';
import { type FakeOpenAiServer, startFakeOpenAi } from '../../src/testing/fake-openai-server.js';
import { oscarsPage, parasitePage } from '../helpers/agent-harness.js';
import { startFakeSearxng } from '../helpers/fake-searxng-server.js';
import { startFakeWeb } from '../helpers/fake-web-server.js';
import { passingEvaluation } from '../helpers/passing-evaluation.js';
import { runBuiltCli } from '../helpers/run-built-cli.js';

const question = 'Who directed the film that won Best Picture the year Parasite premiered?';
let web: FakeHttpServer;
let searxng: FakeHttpServer;

beforeAll(async () => {
  web = await startFakeWeb({
    pages: { '/parasite': { html: parasitePage }, '/oscars': { html: oscarsPage } },
  });
  searxng = await startFakeSearxng({
    results: {
      'Parasite premiere': [
        {
          url: `${web.url}/parasite`,
          title: 'Parasite (2019 film)',
          content: 'Parasite premiered at Cannes on 21 May 2019.',
        },
      ],
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

function agentReply(object: unknown) {
  return { content: JSON.stringify(object), usage: { prompt_tokens: 1200, completion_tokens: 80 } };
}

/** An agent step as its schema asks for it, nested: `{think, step: {action, <action>: payload}}`. */
function nestedStep({ think, ...step }: { think: string; action: string } & Record<string, unknown>) {
  return agentReply({ think, step });
}

function cliEnv(llm: FakeOpenAiServer): Record<string, string> {
  return {
    DEEPSEARCH_LLM_BASE_URL: `${llm.url}/v1`,
    DEEPSEARCH_LLM_MODEL: 'fake-model',
    DEEPSEARCH_SEARCH_PROVIDER: 'searxng',
    DEEPSEARCH_SEARXNG_URL: searxng.url,
  };
}

describe('deepsearch ask (built CLI, real HTTP on 127.0.0.1)', () => {
  it('answers with a reference whose quote is literally on the page read, and prints only JSON with --json', async () => {
    const llm = await startFakeOpenAi({
      routes: {
        // Steps nested as a server holding the model to the schema writes them.
        agent_action: [
          nestedStep({
            think: 'Find both facts.',
            action: 'search',
            search: { queries: ['Parasite premiere', 'Best Picture 2019'] },
          }),
          nestedStep({
            think: 'Read the pages.',
            action: 'visit',
            visit: { targets: [`${web.url}/parasite`, `${web.url}/oscars`] },
          }),
          nestedStep({
            think: 'Both facts found.',
            action: 'answer',
            answer: {
              text: 'Peter Farrelly: his film Green Book won Best Picture[^1] in 2019, when Parasite premiered[^2].',
              references: [
                {
                  url: `${web.url}/oscars`,
                  quote: 'Green Book won Best Picture. The film was directed by Peter Farrelly.',
                },
                {
                  url: `${web.url}/parasite`,
                  quote: 'premiered at the 2019 Cannes Film Festival on 21 May 2019',
                },
              ],
            },
          }),
        ],
        evaluation_criteria: [
          agentReply({
            think: 'multi-hop',
            needsFreshness: false,
            needsPlurality: false,
            needsCompleteness: false,
            needsStrict: false,
          }),
        ],
        evaluate_definitive: [agentReply({ think: 'Direct answer.', pass: true, improvement: '' })],
        // The rewriter (on by default) keeps the queries; a repeat it adds is dropped before searching.
        query_rewrite: [
          agentReply({
            think: 'Already keyword queries.',
            queries: [
              { query: 'Parasite premiere', timeRange: 'none', language: '' },
              { query: 'Best Picture 2019', timeRange: 'none', language: '' },
              { query: 'best picture   2019', timeRange: 'none', language: '' },
            ],
          }),
        ],
      },
    });
    try {
      const run = await runBuiltCli(['ask', question, '--json', '--allow-private-network'], cliEnv(llm));
      expect(run.stderr).toContain('[1]');
      expect(run.code).toBe(0);
      const output = JSON.parse(run.stdout);
      expect(output.answer).toContain('Peter Farrelly');
      expect(output.references).toHaveLength(2);
      const oscars = web.requests.find((request) => request.path === '/oscars');
      expect(oscars).toBeDefined();
      expect(oscarsPage).toContain(output.references[0].quote);
      expect(output.references[0]).toMatchObject({ url: `${web.url}/oscars`, title: '91st Academy Awards' });
      expect(output.steps).toBe(3);
      expect(output.usage.byRole.agent).toMatchObject({
        promptTokens: 3600,
        completionTokens: 240,
        calls: 3,
      });
      expect(output.usage.totalTokens).toBe(output.usage.promptTokens + output.usage.completionTokens);
      expect(output.usage.byRole.rewriter).toMatchObject({ calls: 1 });
      expect(output.usage.searchCalls).toBe(2);
      expect(output.budget).toMatchObject({ stepsUsed: 3, exhausted: null, finalAnswerForced: false });
      expect(output.confidence).toBe('high');
      expect(typeof output.durationMs).toBe('number');
      llm.assertConsumed();
    } finally {
      await llm.close();
    }
  });

  it('searches the queries as written, with no rewriter call, under --no-query-rewrite', async () => {
    const llm = await startFakeOpenAi({
      routes: {
        // Steps written flat, as a model not held to the schema may: taken as repairs.
        agent_action: [
          agentReply({ think: 'Search.', action: 'search', search: { queries: ['Parasite premiere'] } }),
          agentReply({
            think: 'Found it.',
            action: 'answer',
            answer: {
              text: 'Parasite premiered at Cannes on 21 May 2019[^1].',
              references: [
                { url: `${web.url}/parasite`, quote: 'Parasite premiered at Cannes on 21 May 2019.' },
              ],
            },
          }),
        ],
        ...passingEvaluation(agentReply, 'Direct answer.'),
      },
    });
    try {
      const before = searxng.requests.length;
      const run = await runBuiltCli(
        ['ask', 'When did Parasite premiere?', '--json', '--no-query-rewrite', '--allow-private-network'],
        cliEnv(llm),
      );
      expect(run.code).toBe(0);
      const output = JSON.parse(run.stdout);
      expect(output.usage.byRole.rewriter).toBeUndefined();
      expect(output.usage.parseFailures).toBe(0);
      expect(output.usage.repairs).toBeGreaterThanOrEqual(2);
      expect(searxng.requests.slice(before).map((request) => request.query.q)).toEqual(['Parasite premiere']);
      llm.assertConsumed();
    } finally {
      await llm.close();
    }
  });

  it('prints a readable answer with sources and quotes without --json', async () => {
    const llm = await startFakeOpenAi({
      routes: {
        agent_action: [
          agentReply({ think: 'Trivial.', action: 'answer', answer: { text: '2', references: [] } }),
        ],
      },
    });
    try {
      const run = await runBuiltCli(['ask', 'What is 1+1?'], cliEnv(llm));
      expect(run.code).toBe(0);
      expect(run.stdout).toContain('2');
      expect(run.stdout).toContain('Confidence: high');
    } finally {
      await llm.close();
    }
  });

  it('refuses to read a loopback URL from the question unless --allow-private-network is given', async () => {
    const llm = await startFakeOpenAi({
      routes: {
        agent_action: [
          agentReply({ think: 'Read the page given.', action: 'visit', visit: { targets: ['1'] } }),
        ],
        final_answer: [agentReply({ think: 'Nothing read.', answer: { text: 'Unknown.', references: [] } })],
      },
    });
    try {
      const before = web.requests.length;
      const run = await runBuiltCli(
        ['ask', `What does ${web.url}/oscars say about Best Picture?`, '--json', '--max-steps', '2'],
        cliEnv(llm),
      );
      expect(run.code).toBe(0);
      expect(JSON.parse(run.stdout).visitedUrls).toEqual([]);
      expect(run.stderr).toMatch(/✗ http:\/\/127\.0\.0\.1:\d+\/oscars: .*(loopback|private)/);
      expect(web.requests.length).toBe(before);
      llm.assertConsumed();
    } finally {
      await llm.close();
    }
  });
});

describe('interrupting the CLI', () => {
  it('Ctrl-C while the LLM is thinking cancels the run within a second and exits 130', async () => {
    const llm = await startFakeOpenAi({ routes: { agent_action: [{ delayMs: 20_000 }] } });
    try {
      let interruptedAt = 0;
      const run = await runBuiltCli(['ask', 'Which film won Best Picture in 2019?'], cliEnv(llm), {
        onSpawn: (child) => {
          const poll = setInterval(() => {
            // The first chat request: the model is thinking (earlier ones ask the server its window).
            if (!llm.requests.some((request) => request.path === '/v1/chat/completions')) return;
            clearInterval(poll);
            interruptedAt = Date.now();
            child.kill('SIGINT');
          }, 20);
        },
      });
      expect(interruptedAt).toBeGreaterThan(0);
      expect(Date.now() - interruptedAt).toBeLessThan(1000);
      expect(run.code).toBe(130);
      expect(run.stderr).toContain('interrupted');
      expect(run.stderr).not.toMatch(/\n\s+at /);
      expect(run.stdout).toBe('');
    } finally {
      await llm.close();
    }
  });
});

describe('bad input: one clear line on stderr, non-zero exit, no stack trace', () => {
  const oneLine = (stderr: string) => stderr.trim().split('\n');

  it('no question', async () => {
    const run = await runBuiltCli(['ask'], {
      DEEPSEARCH_LLM_BASE_URL: 'http://127.0.0.1:9/v1',
      DEEPSEARCH_LLM_MODEL: 'm',
    });
    expect(run.code).toBe(2);
    expect(oneLine(run.stderr)).toEqual([
      'deepsearch: error: missing question: run deepsearch ask "your question"',
    ]);
  });

  it('unknown search provider', async () => {
    const run = await runBuiltCli(['ask', 'q', '--search-provider', 'nope'], {
      DEEPSEARCH_LLM_BASE_URL: 'http://127.0.0.1:9/v1',
      DEEPSEARCH_LLM_MODEL: 'm',
    });
    expect(run.code).toBe(2);
    expect(oneLine(run.stderr)).toHaveLength(1);
    expect(run.stderr).toMatch(/unknown search provider 'nope' \(available: .*searxng/);
  });

  it('unknown LLM provider', async () => {
    const run = await runBuiltCli(['ask', 'q'], { DEEPSEARCH_LLM_PROVIDER: 'skynet' });
    expect(run.code).toBe(2);
    expect(oneLine(run.stderr)).toEqual([
      "deepsearch: error: unknown LLM provider 'skynet' (available: openai, openai-compatible, anthropic, google, local-embedded) (set by DEEPSEARCH_LLM_PROVIDER)",
    ]);
  });

  it('no LLM configured at all', async () => {
    const run = await runBuiltCli(['ask', 'q']);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('no LLM configured: set DEEPSEARCH_LLM_BASE_URL');
  });

  it('unreachable LLM', async () => {
    const run = await runBuiltCli(['ask', 'q', '--llm-max-retries', '0'], {
      DEEPSEARCH_LLM_BASE_URL: 'http://127.0.0.1:9/v1',
      DEEPSEARCH_LLM_MODEL: 'm',
      DEEPSEARCH_SEARXNG_URL: 'http://127.0.0.1:9',
    });
    expect(run.code).toBe(3);
    expect(oneLine(run.stderr)).toHaveLength(1);
    expect(run.stderr).toContain('cannot reach the LLM server at http://127.0.0.1:9/v1/chat/completions');
    expect(run.stderr).not.toMatch(/\n\s+at /);
  });

  it('bad key: says which variable to fix, never prints the key', async () => {
    const llm = await startFakeOpenAi({ apiKey: 'the-right-key' });
    try {
      const run = await runBuiltCli(['ask', 'q'], {
        ...cliEnv(llm),
        DEEPSEARCH_LLM_API_KEY: 'sk-wrong-secret',
      });
      expect(run.code).toBe(3);
      expect(oneLine(run.stderr)).toHaveLength(1);
      expect(run.stderr).toContain('rejected the API key');
      expect(run.stderr).toContain('DEEPSEARCH_LLM_API_KEY');
      expect(run.stderr + run.stdout).not.toContain('sk-wrong-secret');
    } finally {
      await llm.close();
    }
  });

  it('bad flag value names the flag', async () => {
    const run = await runBuiltCli(['ask', 'q', '--max-steps', 'many']);
    expect(run.code).toBe(2);
    expect(oneLine(run.stderr)).toEqual([
      'deepsearch: error: --max-steps must be a whole number (got "many")',
    ]);
  });

  it('--debug adds the stack trace', async () => {
    const run = await runBuiltCli(['ask', 'q', '--debug', '--llm-max-retries', '0'], {
      DEEPSEARCH_LLM_BASE_URL: 'http://127.0.0.1:9/v1',
      DEEPSEARCH_LLM_MODEL: 'm',
      DEEPSEARCH_SEARXNG_URL: 'http://127.0.0.1:9',
    });
    expect(run.code).toBe(3);
    expect(run.stderr).toMatch(/\n\s+at /);
  });
});
