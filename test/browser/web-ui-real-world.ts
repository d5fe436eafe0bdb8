import { connect, createServer, type Socket } from 'node:net';
import { type FakeHttpServer, listenOnLoopback } from '../../src/testing/fake-http-server.js';
import {
  type FakeOpenAiRequest,
  type FakeOpenAiRoute,
  type FakeOpenAiServer,
  startFakeOpenAi,
} from '../../src/testing/fake-openai-server.js';
import { type FakeSearxngResult, startFakeSearxng } from '../helpers/fake-searxng-server.js';
import { type FakeWebPage, startFakeWeb } from '../helpers/fake-web-server.js';
import { alwaysPassingEvaluation } from '../helpers/passing-evaluation.js';
import { type BuiltWorker, startBuiltWorker } from '../helpers/queue-cluster.js';
import { researchRoutes, researchSearxngResults, researchWebPages } from '../helpers/research-fake-llm.js';
import { type BuiltServer, serveBuiltCli } from '../helpers/serve-built-cli.js';

/**
 * The web UI's world for the real server: `deepsearch serve` from dist/ with an OpenAI-compatible
 * fake LLM, a fake SearXNG and a fake web on 127.0.0.1 (private addresses allowed). Each question
 * below is a scenario the fake LLM recognises in its prompts; nothing depends on call order.
 */
export const realQuestions = {
  paris: 'What is the capital of France, and how many people live there?',
  hostile: 'What does the markup test page say?',
  /**
   * Searches, then the model never answers: a run that stays running until it is cancelled, or,
   * once the world's `answerHang()` was called, reads what search found and answers.
   */
  hang: 'Which question never gets an answer?',
} as const;

export const realQuotes = {
  paris: 'Paris is the capital and largest city of France.',
  population: 'The city proper has 2,102,650 residents.',
  hostile: 'The page literally says <script>alert(1)</script> and <img src=x onerror=alert(2)> here.',
  slow: 'The slow question was answered once the model came back.',
} as const;

export const realTitles = {
  paris: 'Paris - Encyclopedia',
  population: 'Population of Paris',
  slow: 'The slow page',
  /** The hostile page's <title>: markup as text, which the timeline must show as text. */
  hostile: '<img src=x onerror=alert(3)> Markup test page',
} as const;

const page = (title: string, body: string): FakeWebPage => ({
  html: `<!doctype html><html><head><title>${title}</title></head><body><article><h1>${title}</h1>${body}</article></body></html>`,
});

/** The fake web: two Paris pages, the hang question's page, a page with markup in its title and text, and a 404. */
export const realPages: Record<string, FakeWebPage> = {
  '/wiki/Paris': page(
    realTitles.paris,
    `<p>${realQuotes.paris} It sits on the Seine in the north of the country.</p><p>Its history goes back more than two thousand years.</p>`,
  ),
  '/stats/paris': page(
    realTitles.population,
    `<p>${realQuotes.population} The wider metropolitan area is far larger.</p>`,
  ),
  '/slow': page(realTitles.slow, `<p>${realQuotes.slow} Nothing more happened.</p>`),
  // Markup escaped in the source is text on the page; the real script and image must be dropped by the reader.
  '/markup': {
    html:
      `<!doctype html><html><head><title>${realTitles.hostile}</title></head><body><article><h1>Markup test page</h1>` +
      '<p>The page literally says &lt;script&gt;alert(1)&lt;/script&gt; and &lt;img src=x onerror=alert(2)&gt; here.</p>' +
      '<script>alert(4)</script><img src="x" onerror="alert(5)"><p>Nothing else is on this page.</p></article></body></html>',
  },
};

interface Scenario {
  queries: string[];
  /** Paths on the fake web the agent reads once search offered them. */
  read: string[];
  /** Text of a read page: once the prompt holds it, the agent answers. */
  readMarker: string;
  answer: (webUrl: string) => { text: string; references: Array<{ url: string; quote: string }> };
  /** After searching, the model never replies. */
  hangs?: boolean;
}

const scenarios: Record<keyof typeof realQuestions, Scenario> = {
  paris: {
    queries: ['capital of France', 'Paris population'],
    read: ['/wiki/Paris', '/stats/paris', '/wiki/Lyon'],
    readMarker: realQuotes.population,
    answer: (webUrl) => ({
      text: 'Paris is the capital of France.[^1] About 2.1 million people live in the city itself.[^2]',
      references: [
        { url: `${webUrl}/wiki/Paris`, quote: realQuotes.paris },
        { url: `${webUrl}/stats/paris`, quote: realQuotes.population },
      ],
    }),
  },
  hostile: {
    queries: ['markup test page'],
    read: ['/markup'],
    readMarker: 'Nothing else is on this page.',
    answer: (webUrl) => ({
      text: 'The page shows markup as text: <script>alert(6)</script> <img src=x onerror=alert(7)> [a link](javascript:alert(8)).[^1]',
      references: [{ url: `${webUrl}/markup`, quote: realQuotes.hostile }],
    }),
  },
  hang: {
    queries: ['a slow query'],
    read: ['/slow'],
    readMarker: 'Nothing more happened.',
    answer: (webUrl) => ({
      text: 'It got one after all, once the model answered.[^1]',
      references: [{ url: `${webUrl}/slow`, quote: realQuotes.slow }],
    }),
    hangs: true,
  },
};

/** Search results: each scenario's queries find its pages (the 404 one included). */
function searchResults(webUrl: string) {
  return (query: string): FakeSearxngResult[] => {
    for (const scenario of Object.values(scenarios)) {
      if (!scenario.queries.includes(query)) continue;
      return scenario.read.map((path) => ({
        url: `${webUrl}${path}`,
        title: path.slice(1),
        content: `A result for ${query}.`,
      }));
    }
    return [];
  };
}

const reply = (object: unknown) => ({
  content: JSON.stringify(object),
  usage: { prompt_tokens: 1200, completion_tokens: 80 },
});

/** The fake LLM's routes for the search scenarios: every reply is a function of the prompt. */
function searchRoutes(webUrl: string, hang: { answers: boolean }): Record<string, FakeOpenAiRoute> {
  const scenarioOf = (request: FakeOpenAiRequest) => {
    const key = (Object.keys(realQuestions) as Array<keyof typeof realQuestions>).find((name) =>
      request.prompt.includes(realQuestions[name]),
    );
    if (!key) throw new Error(`no scenario for the prompt: ${request.prompt.slice(0, 200)}`);
    return scenarios[key];
  };
  return {
    agent_action: (request) => {
      const scenario = scenarioOf(request);
      if (request.prompt.includes(scenario.readMarker))
        return reply({ think: 'The pages answer it.', action: 'answer', answer: scenario.answer(webUrl) });
      if (scenario.hangs && !hang.answers && request.prompt.includes(scenario.queries[0]!))
        return { delayMs: 120_000 };
      const offered = scenario.read.map((path) => `${webUrl}${path}`);
      if (offered.some((url) => request.prompt.includes(url)))
        return reply({ think: 'Read what search found.', action: 'visit', visit: { targets: offered } });
      return reply({
        think: `Search for ${scenario.queries.join(' and ')}.`,
        action: 'search',
        search: { queries: scenario.queries },
      });
    },
    query_rewrite: (request) =>
      reply({
        think: 'fine as they are',
        queries: scenarioOf(request).queries.map((query) => ({ query, timeRange: 'none', language: '' })),
      }),
    ...alwaysPassingEvaluation(reply),
  };
}

/**
 * The heat pump research routes, plus a librarian that finds every item covered by the market
 * report (so no second hop is needed) and next-hop queries should one be asked for.
 */
function researchWorldRoutes(webUrl: string): Record<string, FakeOpenAiRoute> {
  const itemIds = (request: FakeOpenAiRequest) => {
    const items = /<items>([\s\S]*?)<\/items>/.exec(request.prompt)?.[1] ?? '';
    return [...items.matchAll(/^(\d+)\. /gm)].map((match) => Number(match[1]));
  };
  return {
    ...researchRoutes(webUrl),
    librarian_check: (request) =>
      reply({
        think: 'The market report answers each item.',
        items: itemIds(request).map((id) => ({
          id,
          covered: true,
          quotes: [
            { url: `${webUrl}/ehpa`, quote: 'Heat pump sales in Europe reached 3 million units in 2022' },
          ],
          value: '3 million units in 2022',
          verification: 'confirmed',
          note: 'stated on the page',
        })),
      }),
    next_hop_queries: (request) =>
      reply({
        think: 'target the gaps',
        gaps: itemIds(request).map((id) => ({ id, queries: ['European heat pump sales'] })),
        pivot: '',
      }),
  };
}

export interface RealWorld {
  /** The server's base URL: the page is at `${url}/`. */
  url: string;
  web: FakeHttpServer;
  searxng: FakeHttpServer;
  llm: FakeOpenAiServer;
  server: BuiltServer;
  /** Queue mode's worker (the server is then an API node that runs nothing itself). */
  worker?: BuiltWorker;
  /** From now on the model answers the hang question's steps instead of never replying. */
  answerHang(): void;
  /** The LLM server goes away (connections refused) or comes back at the same address. */
  llmDown(): Promise<void>;
  llmUp(): Promise<void>;
  close(): Promise<void>;
}

/**
 * The LLM as the server sees it: a TCP relay on a port of its own that forwards to the fake LLM
 * while up, and does not listen at all while down (connection refused, as when a model server
 * is stopped).
 */
async function startLlmRelay(target: string) {
  const { port: targetPort } = new URL(target);
  const sockets = new Set<Socket>();
  const relay = createServer((socket) => {
    const upstream = connect(Number(targetPort), '127.0.0.1');
    sockets.add(socket).add(upstream);
    for (const side of [socket, upstream]) side.on('close', () => sockets.delete(side)).on('error', () => {});
    socket.pipe(upstream).pipe(socket);
  });
  const port = await listenOnLoopback(relay);
  // Back up on the port it had, so the server's configured URL reaches it again.
  const listen = (at: number) =>
    new Promise<void>((resolve, reject) =>
      relay.once('error', reject).listen(at, '127.0.0.1', () => resolve()),
    );
  const down = () =>
    new Promise<void>((resolve) => {
      for (const socket of sockets) socket.destroy();
      relay.close(() => resolve());
    });
  return {
    url: `http://127.0.0.1:${port}`,
    down,
    up: () => listen(port),
    close: () => (relay.listening ? down() : undefined),
  };
}

/**
 * Starts the fakes and the built server. `research` serves the heat pump research world of
 * test/helpers/research-fake-llm.ts instead of the search scenarios. `queue` (Redis and Postgres
 * URLs) starts the server as a queue-mode API node and one `deepsearch worker` that runs the runs.
 */
export async function startRealWorld(
  options: { apiKey?: string; research?: boolean; queue?: { redisUrl: string; databaseUrl: string } } = {},
): Promise<RealWorld> {
  const web = await startFakeWeb({ pages: options.research ? researchWebPages : realPages });
  const searxng = await startFakeSearxng({
    results: options.research ? researchSearxngResults(web.url) : searchResults(web.url),
  });
  const hang = { answers: false };
  const llm = await startFakeOpenAi({
    routes: options.research ? researchWorldRoutes(web.url) : searchRoutes(web.url, hang),
  });
  const relay = await startLlmRelay(llm.url);
  const env = {
    DEEPSEARCH_LLM_BASE_URL: `${relay.url}/v1`,
    // A model server that is down fails the run at once, not after retries.
    DEEPSEARCH_LLM_MAX_RETRIES: '0',
    DEEPSEARCH_LLM_MODEL: 'fake-model',
    DEEPSEARCH_SEARCH_PROVIDER: 'searxng',
    DEEPSEARCH_SEARXNG_URL: searxng.url,
    DEEPSEARCH_ALLOW_PRIVATE_NETWORK: '1',
    ...(options.queue
      ? { DEEPSEARCH_REDIS_URL: options.queue.redisUrl, DEEPSEARCH_DATABASE_URL: options.queue.databaseUrl }
      : {}),
  };
  const server = await serveBuiltCli({
    ...env,
    ...(options.apiKey ? { DEEPSEARCH_API_KEYS: options.apiKey } : {}),
  });
  const worker = options.queue ? await startBuiltWorker(env, 2) : undefined;
  return {
    url: server.url,
    web,
    searxng,
    llm,
    server,
    worker,
    answerHang() {
      hang.answers = true;
    },
    llmDown: () => relay.down(),
    llmUp: () => relay.up(),
    async close() {
      await Promise.all([server.stop(), worker?.stop()]);
      await Promise.all([web.close(), searxng.close(), llm.close(), relay.close()]);
    },
  };
}
