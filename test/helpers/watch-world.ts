import type { FakeHttpServer } from '../../src/testing/fake-http-server.js';
import {
  type FakeOpenAiReply,
  type FakeOpenAiRequest,
  type FakeOpenAiServer,
  startFakeOpenAi,
} from '../../src/testing/fake-openai-server.js';
import { startFakeSearxng } from './fake-searxng-server.js';
import { startFakeWeb } from './fake-web-server.js';
import { alwaysPassingEvaluation } from './passing-evaluation.js';

/**
 * A local web whose one page changes between a watch's checks, with a fake SearXNG that finds it
 * and a fake model that answers from it (every sentence citing the page's own words): phase 0 is
 * the baseline, 1 changes the length (a number), 2 the opening date, 3 says the same facts in
 * other words.
 */
export const watchFacts = [
  {
    length: 'The Orlin Bridge is 412 metres long.',
    opened: 'The Orlin Bridge opened to traffic on 3 May 1998.',
  },
  {
    length: 'The Orlin Bridge is 436 metres long.',
    opened: 'The Orlin Bridge opened to traffic on 3 May 1998.',
  },
  {
    length: 'The Orlin Bridge is 436 metres long.',
    opened: 'The Orlin Bridge opened to traffic on 9 June 1998.',
  },
  {
    length: 'The Orlin Bridge measures 436 metres in total length.',
    opened: 'The bridge was opened to traffic on 9 June 1998.',
  },
] as const;
export const watchOperator = 'It is run by the Orlin Transit Authority.';
export const watchQuestion = 'How long is the Orlin Bridge, when did it open and who runs it?';

export interface WatchWorldEnv {
  DEEPSEARCH_LLM_BASE_URL: string;
  DEEPSEARCH_LLM_MODEL: string;
  DEEPSEARCH_SEARCH_PROVIDER: string;
  DEEPSEARCH_SEARXNG_URL: string;
  DEEPSEARCH_ALLOW_PRIVATE_NETWORK: string;
  DEEPSEARCH_READER: string;
  DEEPSEARCH_NO_RUNS: string;
}

export interface WatchWorld {
  /** Which of watchFacts the page says now. */
  phase: number;
  pageUrl: string;
  /** What a built CLI or server needs to use this world. */
  env: WatchWorldEnv;
  close(): Promise<void>;
}

const reply = (object: unknown): FakeOpenAiReply => ({ content: JSON.stringify(object) });

export async function startWatchWorld(): Promise<WatchWorld> {
  let web: FakeHttpServer | undefined;
  let searxng: FakeHttpServer | undefined;
  let llm: FakeOpenAiServer | undefined;
  const world: WatchWorld = {
    phase: 0,
    pageUrl: '',
    env: {} as WatchWorldEnv,
    async close() {
      await Promise.all([web?.close(), searxng?.close(), llm?.close()]);
    },
  };
  const facts = () => watchFacts[world.phase]!;
  /** The answer the model writes from what it read. */
  const answerFromPage = () => {
    const { length, opened } = facts();
    const strip = (sentence: string) => sentence.replace(/\.$/, '');
    return {
      text: `${strip(length)}[^1]. ${strip(opened)}[^2]. ${strip(watchOperator)}[^3].`,
      references: [length, opened, watchOperator].map((sentence) => ({
        url: world.pageUrl,
        quote: strip(sentence),
      })),
    };
  };
  const agentAction = (request: FakeOpenAiRequest): FakeOpenAiReply => {
    const read = `${request.system}\n${request.prompt}`.includes('Orlin Transit Authority');
    if (!read && request.system.includes('<action-visit>'))
      return reply({ think: 'Read it.', step: { action: 'visit', visit: { targets: [world.pageUrl] } } });
    if (!read && request.system.includes('<action-search>'))
      return reply({ think: 'Search.', step: { action: 'search', search: { queries: ['Orlin Bridge'] } } });
    return reply({ think: 'Answer.', step: { action: 'answer', answer: answerFromPage() } });
  };
  try {
    // The page is looked up at each request: the phase decides what it says.
    web = await startFakeWeb({
      pages: {
        get '/orlin-bridge'() {
          const { length, opened } = facts();
          return {
            html: `<html><head><title>Orlin Bridge</title></head><body><article><h1>Orlin Bridge</h1>
<p>${length} ${opened} ${watchOperator}</p></article></body></html>`,
          };
        },
      },
    });
    world.pageUrl = `${web.url}/orlin-bridge`;
    searxng = await startFakeSearxng({
      results: () => [{ url: world.pageUrl, title: 'Orlin Bridge', content: 'A bridge.' }],
    });
    llm = await startFakeOpenAi({
      routes: {
        agent_action: agentAction,
        query_rewrite: () => reply({ think: 'Keep it.', queries: ['Orlin Bridge'] }),
        final_answer: () => reply({ think: 'Answer.', answer: answerFromPage() }),
        ...alwaysPassingEvaluation(reply),
      },
    });
    world.env = {
      DEEPSEARCH_LLM_BASE_URL: `${llm.url}/v1`,
      DEEPSEARCH_LLM_MODEL: 'fake-model',
      DEEPSEARCH_SEARCH_PROVIDER: 'searxng',
      DEEPSEARCH_SEARXNG_URL: searxng.url,
      DEEPSEARCH_ALLOW_PRIVATE_NETWORK: '1',
      DEEPSEARCH_READER: 'builtin',
      DEEPSEARCH_NO_RUNS: '0',
    };
    return world;
  } catch (error) {
    await world.close();
    throw error;
  }
}
