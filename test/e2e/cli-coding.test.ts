import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FakeHttpServer } from '../../src/testing/fake-http-server.js';
import { startFakeOpenAi } from '../../src/testing/fake-openai-server.js';
import { startFakeSearxng } from '../../src/testing/fake-searxng-server.js';
import { startFakeWeb } from '../../src/testing/fake-web-server.js';
import { passingEvaluation } from '../helpers/passing-evaluation.js';
import { runBuiltCli } from '../helpers/run-built-cli.js';

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

describe('deepsearch ask with the coding action (built CLI)', () => {
  it('shows the code and its result in progress, and lists the computation in --json', async () => {
    const llm = await startFakeOpenAi({
      routes: {
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
      },
    });
    try {
      const run = await runBuiltCli(
        ['ask', 'How many people live in the Nordic countries?', '--json', '--allow-private-network'],
        {
          DEEPSEARCH_LLM_BASE_URL: `${llm.url}/v1`,
          DEEPSEARCH_LLM_MODEL: 'fake-model',
          DEEPSEARCH_SEARCH_PROVIDER: 'searxng',
          DEEPSEARCH_SEARXNG_URL: searxng.url,
          DEEPSEARCH_QUERY_REWRITE: 'false',
        },
      );
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
});
