import OpenAI from 'openai';
import type { DeepSearchConfig, ServerConfig } from '../../src/config/config-schema.js';
import { createProcessMetrics } from '../../src/metrics/process-metrics.js';
import { withRunMetrics } from '../../src/metrics/run-metrics.js';
import type { SearchHit } from '../../src/providers/spec/search-provider.js';
import { createRuntime } from '../../src/runtime/create-runtime.js';
import { type RunningServer, startServer } from '../../src/server/start-server.js';
import { createFakeReader, type FakeReader } from '../../src/testing/fake-reader.js';
import { createFakeSearch, type FakeSearch } from '../../src/testing/fake-search.js';
import { createScriptedLlm, type ScriptedLlm, type ScriptedStep } from '../../src/testing/scripted-llm.js';
import { createTestConfig } from '../../src/testing/test-config.js';
import { createSqliteWatchStore } from '../../src/watch/store/sqlite-watch-store.js';

export interface TestServerOptions {
  steps?: ScriptedStep[];
  search?: Record<string, SearchHit[]>;
  pages?: Record<string, string>;
  server?: Partial<ServerConfig>;
  config?: Parameters<typeof createTestConfig>[0];
  apiKey?: string;
  heartbeatMs?: number;
  /** Count runs and serve GET /metrics (src/metrics/), as `deepsearch serve` does. */
  metrics?: boolean;
  /** Keep watches (/v1/watches) in an in-memory store; `schedule`: run the due ones on the timer. */
  watches?: { schedule: boolean };
}

export interface TestServer {
  url: string;
  /** The official client, pointed at the server (with the key when one is configured). */
  client: OpenAI;
  llm: ScriptedLlm;
  search: FakeSearch;
  reader: FakeReader;
  config: DeepSearchConfig;
  /** Access log lines, parsed. */
  logs: Array<Record<string, unknown>>;
  rawLogs: string[];
  server: RunningServer;
  close(): Promise<void>;
}

/** The real server on 127.0.0.1 with a scripted LLM, fake search and fake reader behind it. */
export async function startTestServer(options: TestServerOptions = {}): Promise<TestServer> {
  const llm = createScriptedLlm(options.steps ?? []);
  const search = createFakeSearch(options.search ?? {});
  const reader = createFakeReader(options.pages ?? {});
  const config = createTestConfig({
    // The run store in memory: the async API works, nothing is written to disk.
    runs: { file: ':memory:' },
    ...options.config,
    server: { port: 0, ...(options.apiKey ? { apiKeys: [options.apiKey] } : {}), ...options.server },
  });
  const metrics = options.metrics ? createProcessMetrics() : undefined;
  const plain = createRuntime({ config, search, reader, createModel: () => llm });
  const runtime = metrics ? withRunMetrics(plain, metrics) : plain;
  const rawLogs: string[] = [];
  const server = await startServer({
    runtime,
    metrics,
    settings: config.server,
    log: (line) => rawLogs.push(line),
    heartbeatMs: options.heartbeatMs,
    ...(options.watches
      ? {
          watches: {
            store: createSqliteWatchStore({ file: ':memory:' }),
            schedule: options.watches.schedule,
          },
        }
      : {}),
  });
  const client = new OpenAI({
    baseURL: `${server.url}/v1`,
    apiKey: options.apiKey ?? 'unused',
    maxRetries: 0,
  });
  return {
    url: server.url,
    client,
    llm,
    search,
    reader,
    config,
    get logs() {
      return rawLogs.map((line) => JSON.parse(line) as Record<string, unknown>);
    },
    rawLogs,
    server,
    close: () => server.close({ graceMs: 0 }),
  };
}

/** A chat request body asking "What is 1+1?", with these fields added or replaced. */
export const chatBody = (extra: Record<string, unknown> = {}) =>
  JSON.stringify({ model: 'deepsearch', messages: [{ role: 'user', content: 'What is 1+1?' }], ...extra });

/** Posts a raw body (for what the official client would refuse to send). */
export function postChat(url: string, body: string, headers: Record<string, string> = {}): Promise<Response> {
  return fetch(`${url}/v1/chat/completions`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body,
  });
}

/** The `data:` payloads of an SSE body, in order. */
export function sseData(text: string): string[] {
  return text
    .split('\n\n')
    .map((event) =>
      event
        .split('\n')
        .filter((line) => line.startsWith('data: '))
        .map((line) => line.slice(6))
        .join('\n'),
    )
    .filter((data) => data !== '');
}

/** Waits until `check` holds (polling), or fails after `timeoutMs`. */
export async function waitFor(check: () => boolean, timeoutMs = 3000): Promise<void> {
  const started = Date.now();
  while (!check()) {
    if (Date.now() - started > timeoutMs) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}
