import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { setTimeout as delay } from 'node:timers/promises';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { Agent, fetch as undiciFetch } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type FakeHttpServer, startFakeHttpServer } from '../../src/testing/fake-http-server.js';
import { type FakeOpenAiServer, startFakeOpenAi } from '../../src/testing/fake-openai-server.js';
import { startFakeSearxng } from '../helpers/fake-searxng-server.js';
import { startBuiltServe } from '../helpers/mcp-fixtures.js';

const apiKey = 'sk-load-test-0123456789';
const clients = 20;
const callsPerClient = 30;
/** Calls each client keeps in flight: more than the session's cap of 4, so some are refused. */
const workersPerClient = 5;
/** What the server's Retry-After says at least (1 s): a client told "busy" waits that long. */
const busyPauseMs = 1000;

let web: FakeHttpServer;
let searxng: FakeHttpServer;
let llm: FakeOpenAiServer;
/** Page fetches the web server is answering right now, and the most it ever answered at once. */
const fetches = { inFlight: 0, most: 0 };

// A short text page: what is measured is how many reads run at once and what they leave of the
// event loop, not parsing (HTML parsing has its own worker pool and tests).
const article = (title: string) =>
  `${title}\n\n${'A paragraph of the page, long enough to be kept as its content by the reader. '.repeat(40)}`;

beforeAll(async () => {
  web = await startFakeHttpServer(async (request, response) => {
    if (!request.path.startsWith('/page/')) {
      response.writeHead(404).end();
      return;
    }
    fetches.inFlight++;
    fetches.most = Math.max(fetches.most, fetches.inFlight);
    await delay(30);
    response.writeHead(200, { 'content-type': 'text/plain; charset=utf-8' }).end(article(request.path));
    fetches.inFlight--;
  });
  searxng = await startFakeSearxng({ results: {} });
  llm = await startFakeOpenAi({});
});

afterAll(async () => {
  await web.close();
  await searxng.close();
  await llm.close();
  await clientAgent.close();
});

// The clients close an idle connection after 1 s, long before the server's 5 s, and send a
// request again when the server had closed the idle connection it went out on (it never saw it):
// on a loaded machine a timer seconds late otherwise fails a call on a keep-alive race.
const clientAgent = new Agent({ keepAliveTimeout: 1000, keepAliveMaxTimeout: 1000 });
const clientFetch = (async (input: string | URL, init?: RequestInit) => {
  const send = () => undiciFetch(input, { ...(init as object), dispatcher: clientAgent });
  try {
    return await send();
  } catch (error) {
    const cause = (error as { cause?: { code?: string; socket?: { bytesWritten?: number } } }).cause;
    if (cause?.code !== 'UND_ERR_SOCKET') throw error;
    return send();
  }
}) as unknown as typeof fetch;

async function connect(url: string): Promise<Client> {
  const client = new Client({ name: 'load-test', version: '1.0.0' });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(`${url}/mcp`), {
      requestInit: { headers: { Authorization: `Bearer ${apiKey}` } },
      fetch: clientFetch,
    }),
  );
  return client;
}

// The poller runs in its own process: this one is busy with the clients, and its own event loop
// must not be what is measured. It loads its fetch, says ready, polls from "go" on its stdin
// until stdin closes, then prints the slowest answer.
const healthPoller = `
  const url = process.argv[1];
  let slowestMs = 0;
  let checks = 0;
  let stopped = false;
  const go = new Promise((resolve) => process.stdin.once('data', resolve));
  process.stdin.on('end', () => { stopped = true; });
  (async () => {
    await (await fetch(url + '/health')).text();
    process.stdout.write('ready');
    await go;
    while (!stopped) {
      const started = performance.now();
      const response = await fetch(url + '/health', { signal: AbortSignal.timeout(10000) });
      await response.text();
      slowestMs = Math.max(slowestMs, performance.now() - started);
      checks++;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    process.stdout.write(JSON.stringify({ slowestMs, checks }));
  })();
`;

/** The /health poller in a child process, loaded and waiting for start(). */
async function startHealthPoller(url: string) {
  const child = spawn(process.execPath, ['-e', healthPoller, url], { stdio: ['pipe', 'pipe', 'inherit'] });
  let output = '';
  await new Promise<void>((resolve) => {
    child.stdout.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      if (output.startsWith('ready')) resolve();
    });
  });
  return {
    start: () => child.stdin.write('go\n'),
    async stop(): Promise<{ slowestMs: number; checks: number }> {
      const exited = once(child, 'exit');
      child.stdin.end();
      await exited;
      return JSON.parse(output.slice('ready'.length)) as { slowestMs: number; checks: number };
    },
  };
}

describe('deepsearch serve under MCP load (built CLI, SDK clients)', () => {
  it(`${clients} clients × ${callsPerClient} read_url calls: /health answers within 1 s, fetches stay within the slots`, async () => {
    const serve = await startBuiltServe({
      DEEPSEARCH_LLM_BASE_URL: `${llm.url}/v1`,
      DEEPSEARCH_LLM_MODEL: 'fake-model',
      DEEPSEARCH_SEARCH_PROVIDER: 'searxng',
      DEEPSEARCH_SEARXNG_URL: searxng.url,
      DEEPSEARCH_ALLOW_PRIVATE_NETWORK: 'true',
      DEEPSEARCH_API_KEYS: apiKey,
      DEEPSEARCH_MAX_CONCURRENT: '4',
      DEEPSEARCH_MAX_QUEUE: '8',
    });
    try {
      // A batch of 100 calls in one POST is refused whole, before any of them runs.
      const batch = await fetch(`${serve.url}/mcp`, {
        method: 'POST',
        headers: {
          authorization: `Bearer ${apiKey}`,
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
        },
        body: JSON.stringify(
          Array.from({ length: 100 }, (_, id) => ({
            jsonrpc: '2.0',
            id,
            method: 'tools/call',
            params: { name: 'read_url', arguments: { url: `${web.url}/page/batch-${id}` } },
          })),
        ),
      });
      expect(batch.status).toBe(400);
      expect(await batch.text()).toContain('at most 16 messages');

      const health = await startHealthPoller(serve.url);
      const sessions = await Promise.all(Array.from({ length: clients }, () => connect(serve.url)));
      // Each client opens its connections first (a listing takes no slot): a burst of 120 new
      // connections waits in the kernel's accept queue, a /health connection behind them.
      await Promise.all(
        sessions.flatMap((client) => Array.from({ length: workersPerClient }, () => client.listTools())),
      );
      health.start();
      const outcomes: Array<'read' | 'busy' | string> = [];
      const started = performance.now();
      await Promise.all(
        sessions.map((client, clientIndex) =>
          Promise.all(
            Array.from({ length: workersPerClient }, async (_, worker) => {
              for (let call = worker; call < callsPerClient; call += workersPerClient) {
                const result = await client.callTool({
                  name: 'read_url',
                  arguments: { url: `${web.url}/page/${clientIndex}-${call}`, max_chars: 500 },
                });
                const text = (result.content as Array<{ text: string }>)[0]!.text;
                const outcome = !result.isError ? 'read' : /busy/.test(text) ? 'busy' : text;
                outcomes.push(outcome);
                // A client told "busy" waits before its next call, as Retry-After asks: a client
                // that retries in a tight loop is a request-rate problem, which slots do not address.
                if (outcome === 'busy') await delay(busyPauseMs);
              }
            }),
          ),
        ),
      );
      const wallMs = performance.now() - started;
      const { slowestMs, checks } = await health.stop();
      const reads = outcomes.filter((outcome) => outcome === 'read').length;
      const busy = outcomes.filter((outcome) => outcome === 'busy').length;
      console.log(
        `load: ${outcomes.length} calls in ${Math.round(wallMs)} ms, ${reads} read, ${busy} refused as busy; ` +
          `at most ${fetches.most} fetches at once; /health slowest ${Math.round(slowestMs)} ms over ${checks} checks`,
      );
      expect(outcomes.length).toBe(clients * callsPerClient);
      // Every call either read its page or was refused as busy: nothing else failed.
      expect(reads + busy).toBe(outcomes.length);
      expect(reads).toBeGreaterThanOrEqual(8);
      expect(busy).toBeGreaterThan(0);
      // The default 8 slots: never more page fetches at once, and one fetch per page read.
      expect(fetches.most).toBeLessThanOrEqual(4);
      expect(web.requests.filter((request) => request.path.startsWith('/page/')).length).toBe(reads);
      expect(checks).toBeGreaterThan(0);
      expect(slowestMs).toBeLessThan(1000);
      const ready = await fetch(`${serve.url}/ready`, { headers: { authorization: `Bearer ${apiKey}` } });
      expect(await ready.json()).toEqual({ status: 'ready', running: 0, queued: 0 });
      await Promise.all(sessions.map((client) => client.close()));
    } catch (error) {
      console.log(serve.output().slice(-3000));
      throw error;
    } finally {
      serve.child.kill('SIGTERM');
      await once(serve.child, 'exit');
    }
  }, 120_000);
});
