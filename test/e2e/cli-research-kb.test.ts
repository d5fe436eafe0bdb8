import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FakeHttpServer } from '../../src/testing/fake-http-server.js';
import {
  type FakeOpenAiRequest,
  type FakeOpenAiServer,
  startFakeOpenAi,
} from '../../src/testing/fake-openai-server.js';
import { startFakeSearxng } from '../helpers/fake-searxng-server.js';
import { startFakeWeb } from '../helpers/fake-web-server.js';
import { heatPumpTexts } from '../helpers/heat-pump-world.js';
import { researchRoutes, researchTopic, researchWebPages } from '../helpers/research-fake-llm.js';
import { runBuiltCli } from '../helpers/run-built-cli.js';

const guard = fileURLToPath(new URL('../helpers/loopback-only.cjs', import.meta.url));
const localSentence = 'Our installers sold 412 heat pumps in Europe in 2023, down from 498 in 2022';
const webSentence = 'Heat pump sales in Europe reached 3 million units in 2022';

let web: FakeHttpServer;
let searxng: FakeHttpServer;
let llm: FakeOpenAiServer;
let dir: string;

const reply = (object: unknown) => ({
  content: JSON.stringify(object),
  usage: { prompt_tokens: 900, completion_tokens: 60 },
});

/**
 * The agent of the heat pump world, aware of the knowledge base: it reads the web report and the
 * local file the search offered (its kb: URL taken from the prompt), then answers quoting both.
 */
function agentAction(webUrl: string) {
  return (request: FakeOpenAiRequest) => {
    const kbUrl = request.prompt.match(/kb:default\/[0-9a-f]{12}#chunk-\d+/)?.[0];
    if (
      request.prompt.includes('412 heat pumps') &&
      request.prompt.includes('reached 3 million units') &&
      kbUrl
    )
      return reply({
        think: 'Both read.',
        action: 'answer',
        answer: {
          text: 'Sales reached 3 million units in 2022[^1]; our installers sold 412 in 2023.[^2]',
          references: [
            { url: `${webUrl}/ehpa`, quote: webSentence },
            { url: kbUrl, quote: localSentence },
          ],
        },
      });
    if (request.prompt.includes(`${webUrl}/ehpa`) && kbUrl)
      return reply({ think: 'Read both.', action: 'visit', visit: { targets: [`${webUrl}/ehpa`, kbUrl] } });
    return reply({
      think: 'Search first.',
      action: 'search',
      search: { queries: ['European heat pump sales'] },
    });
  };
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'deepsearch-research-kb-'));
  mkdirSync(join(dir, 'notes'));
  writeFileSync(
    join(dir, 'notes', 'installer-sales.md'),
    `# Installer sales\n\n${localSentence}. Most went to renovated homes.\n`,
  );
  writeFileSync(join(dir, 'notes', 'lunch.txt'), 'The team lunch is on Fridays.\n');
  web = await startFakeWeb({ pages: researchWebPages });
  searxng = await startFakeSearxng({
    results: {
      'European heat pump sales': [
        { url: `${web.url}/ehpa`, title: 'EHPA market report', content: 'Market data for Europe.' },
      ],
    },
  });
  const routes = researchRoutes(web.url);
  llm = await startFakeOpenAi({
    routes: {
      ...routes,
      agent_action: agentAction(web.url),
      research_section: () =>
        reply({
          markdown:
            'Heat pump sales in Europe reached 3 million units in 2022.[^1] Our installers sold 412 in 2023.[^2]',
        }),
      research_coherence: () => reply({ summary: 'Sales peaked in 2022.[^1]', sections: [], chart: null }),
      research_contradictions: () => reply({ contradictions: [] }),
      research_claims: () => reply({ claims: [] }),
    },
  });
});

afterAll(async () => {
  await Promise.all([web?.close(), searxng?.close(), llm?.close()]);
  rmSync(dir, { recursive: true, force: true });
});

describe('deepsearch research --kb (built CLI, real HTTP on 127.0.0.1)', () => {
  it('cites a local file by its kb: URL with a quote from the file, beside a web source', async () => {
    const env = { DEEPSEARCH_KB: join(dir, 'kb.sqlite'), NODE_OPTIONS: `--require ${guard}` };
    const added = await runBuiltCli(['kb', 'add', join(dir, 'notes'), '--json'], env);
    expect(added.code).toBe(0);
    expect(JSON.parse(added.stdout).added).toHaveLength(2);

    const run = await runBuiltCli(
      ['research', researchTopic, '--kb', '--json', '--allow-private-network'],
      {
        ...env,
        DEEPSEARCH_LLM_BASE_URL: `${llm.url}/v1`,
        DEEPSEARCH_LLM_MODEL: 'fake-model',
        DEEPSEARCH_SEARCH_PROVIDER: 'searxng',
        DEEPSEARCH_SEARXNG_URL: searxng.url,
      },
      { timeoutMs: 90_000 },
    );
    expect(run.stderr).not.toContain('NON-LOOPBACK');
    expect(run.code).toBe(0);
    const report = JSON.parse(run.stdout);
    const local = report.references.filter((reference: { url: string }) => reference.url.startsWith('kb:'));
    const webSources = report.references.filter((reference: { url: string }) =>
      reference.url.startsWith(web.url),
    );
    expect(local).toHaveLength(1);
    expect(local[0].url).toMatch(/^kb:default\/[0-9a-f]{12}#chunk-0$/);
    // The quote is what the local file says, verified against the text the knowledge base stored.
    expect(readFileSync(join(dir, 'notes', 'installer-sales.md'), 'utf8')).toContain(local[0].quote);
    expect(local[0].quote).toBe(localSentence);
    expect(webSources).toHaveLength(1);
    expect(heatPumpTexts.ehpa).toContain(webSources[0].quote);
    expect(report.markdown).toContain(`"${localSentence}"`);
    // Web search was on: the same searches went to the search service.
    expect(searxng.requests.length).toBeGreaterThan(0);
  }, 180_000);
});
