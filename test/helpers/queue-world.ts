// What the queue-mode tests of test/distributed/ run against, all on 127.0.0.1: Redis, Postgres
// (a fresh database), and the research world's web, SearXNG and recording fake LLM, whose agent
// calls a test may hold (a run that is surely running, a section its worker is stopped in).
import type { FakeHttpServer } from '../../src/testing/fake-http-server.js';
import {
  type FakeOpenAiReply,
  type FakeOpenAiRequest,
  type FakeOpenAiServer,
  startFakeOpenAi,
} from '../../src/testing/fake-openai-server.js';
import { startFakeSearxng } from './fake-searxng-server.js';
import { startFakeWeb } from './fake-web-server.js';
import { researchRoutes, researchSearxngResults, researchWebPages } from './research-fake-llm.js';
import {
  type PostgresService,
  type RestartableService,
  startPostgres,
  startRedis,
} from './scale-services.js';

export interface QueueWorld {
  redis: RestartableService;
  postgres: PostgresService;
  web: FakeHttpServer;
  searxng: FakeHttpServer;
  llm: FakeOpenAiServer;
  /** The deployment's two URLs (what `serve`, `worker` and the CLI need for queue mode). */
  queueEnv: Record<string, string>;
  /** The model and search a node or worker runs with (the fakes above). */
  modelEnv: Record<string, string>;
  stop(): Promise<void>;
}

export async function startQueueWorld(options: {
  /** An agent call this answers true for hangs (2 minutes) instead of being answered. */
  hold: (request: FakeOpenAiRequest) => boolean;
  /** The research plan the fake LLM answers with (default: the research world's own). */
  plan?: unknown;
  /** Every agent call is answered after this long (runs that stay in flight a while), or after
   * what this answers for the call. */
  agentDelayMs?: number | ((request: FakeOpenAiRequest) => number);
}): Promise<QueueWorld> {
  const [redis, postgres, web] = await Promise.all([
    startRedis(),
    startPostgres(),
    startFakeWeb({ pages: researchWebPages }),
  ]);
  const searxng = await startFakeSearxng({ results: researchSearxngResults(web.url) });
  const routes = researchRoutes(web.url);
  const agent = routes.agent_action as (request: FakeOpenAiRequest) => FakeOpenAiReply;
  const llm = await startFakeOpenAi({
    routes: {
      ...routes,
      ...(options.plan === undefined
        ? {}
        : {
            research_plan: () => ({
              content: JSON.stringify(options.plan),
              usage: { prompt_tokens: 900, completion_tokens: 60 },
            }),
          }),
      agent_action: (request) => {
        if (options.hold(request)) return { delayMs: 120_000 };
        const reply = agent(request);
        const delayMs =
          typeof options.agentDelayMs === 'function' ? options.agentDelayMs(request) : options.agentDelayMs;
        return delayMs && 'content' in reply ? { ...reply, delayMs } : reply;
      },
    },
  });
  return {
    redis,
    postgres,
    web,
    searxng,
    llm,
    queueEnv: { DEEPSEARCH_REDIS_URL: redis.url, DEEPSEARCH_DATABASE_URL: await postgres.createDatabase() },
    modelEnv: {
      DEEPSEARCH_LLM_BASE_URL: `${llm.url}/v1`,
      DEEPSEARCH_LLM_MODEL: 'fake-model',
      DEEPSEARCH_SEARCH_PROVIDER: 'searxng',
      DEEPSEARCH_SEARXNG_URL: searxng.url,
      DEEPSEARCH_ALLOW_PRIVATE_NETWORK: '1',
    },
    async stop() {
      await Promise.all([redis.stop(), postgres.stop(), web.close(), searxng.close(), llm.close()]);
    },
  };
}
