import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { serve } from '@hono/node-server';
import type { ServerConfig } from '../config/config-schema.js';
import { ConfigError } from '../core/errors/index.js';
import type { ProcessMetrics } from '../metrics/process-metrics.js';
import { closeChromium } from '../platform/browser/launch-chromium.js';
import { describeNonPublicAddress } from '../platform/http/network-guard.js';
import { searchProviderIds } from '../providers/search/search-registry.js';
import type { DeepSearchRuntime } from '../runtime/create-runtime.js';
import type { QueueMode } from '../scale/open-queue-mode.js';
import type { WatchStore } from '../watch/store/watch-store.js';
import type { LogLine } from './middleware/access-log.js';
import { createServerApp } from './server-app.js';

export interface StartServerOptions {
  runtime: DeepSearchRuntime;
  settings: ServerConfig;
  log: LogLine;
  heartbeatMs?: number;
  /** Queue mode: runs go to the workers through the shared queue (server-app.ts). */
  queue?: QueueMode;
  /** The process's metrics: GET /metrics (server-app.ts). */
  metrics?: ProcessMetrics;
  /** Watches' store; `schedule`: this process runs the due ones (server-app.ts). */
  watches?: { store: WatchStore; schedule: boolean };
}

export interface RunningServer {
  /** e.g. http://127.0.0.1:3000 */
  url: string;
  /**
   * Graceful stop: new requests are refused at once (503), running ones get `graceMs` to finish,
   * then they are cancelled (their streams end with an error chunk) and connections are closed.
   */
  close(options?: { graceMs?: number }): Promise<void>;
}

/** Listens on settings.host:settings.port (port 0: any free port) and serves the API. */
export async function startServer(options: StartServerOptions): Promise<RunningServer> {
  const { settings } = options;
  assertGuardedBind(settings);
  let draining = false;
  const shutdown = new AbortController();
  let url: string | undefined;
  const closers: Array<() => Promise<void>> = [];
  const searchProviders = [...new Set([...searchProviderIds, options.runtime.config.search.provider])];
  const app = createServerApp({
    runtime: options.runtime,
    settings,
    searchProviders,
    log: options.log,
    isDraining: () => draining,
    shutdownSignal: shutdown.signal,
    heartbeatMs: options.heartbeatMs,
    queue: options.queue,
    metrics: options.metrics,
    ...(options.watches ? { watches: { ...options.watches, baseUrl: () => url } } : {}),
    onClose: (close) => closers.push(close),
  });
  const server = await new Promise<Server>((resolve, reject) => {
    const created = serve({ fetch: app.fetch, port: settings.port, hostname: settings.host }, () =>
      resolve(created as Server),
    );
    created.once('error', reject);
  });
  const address = server.address() as AddressInfo;
  const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  let closing: Promise<void> | undefined;
  url = `http://${host}:${address.port}`;
  return {
    url,
    close(closeOptions = {}) {
      // The watch timer stops first: a check going on lets its watch go, still due.
      closing ??= Promise.all(closers.map((close) => close().catch(() => undefined)))
        .then(() =>
          drain(server, {
            graceMs: closeOptions.graceMs ?? settings.shutdownGraceSeconds * 1000,
            startDraining: () => {
              draining = true;
            },
            cancelRuns: () => shutdown.abort(new Error('server shutting down')),
            // The browser PDF export started, if any, goes with the server.
          }),
        )
        .then(() => closeChromium());
      return closing;
    },
  };
}

async function drain(
  server: Server,
  steps: { graceMs: number; startDraining: () => void; cancelRuns: () => void },
): Promise<void> {
  steps.startDraining();
  const closed = new Promise<void>((resolve) => server.close(() => resolve()));
  server.closeIdleConnections();
  // A keep-alive connection goes idle when its last response ends: close it then, not at its timeout.
  const idleSweep = setInterval(() => server.closeIdleConnections(), 100);
  const timers: NodeJS.Timeout[] = [];
  timers.push(
    setTimeout(() => {
      steps.cancelRuns();
      // Cancelled streams write their error chunk and end; whatever is still open after that is cut.
      timers.push(setTimeout(() => server.closeAllConnections(), 2000));
    }, steps.graceMs),
  );
  await closed;
  clearInterval(idleSweep);
  for (const timer of timers) clearTimeout(timer);
}

/**
 * Beyond loopback, a server without keys gives the network its API, run history and knowledge
 * base: refused unless the setting says something else guards the port.
 */
export function assertGuardedBind(settings: ServerConfig): void {
  if (settings.apiKeys.length > 0 || settings.allowUnauthenticated) return;
  const host = settings.host.replace(/^\[(.*)\]$/, '$1').toLowerCase();
  if (host === 'localhost' || describeNonPublicAddress(host) === 'loopback address') return;
  throw new ConfigError(
    `refusing to listen on ${settings.host} without API keys: anyone who reaches it could use the API, read the run history and search the knowledge base. Set DEEPSEARCH_API_KEYS, or pass --allow-unauthenticated (DEEPSEARCH_ALLOW_UNAUTHENTICATED=true) if something else guards the port`,
    { code: 'unauthenticated_bind' },
  );
}
