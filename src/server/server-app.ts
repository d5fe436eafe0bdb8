import { Hono } from 'hono';
import { requestId } from 'hono/request-id';
import type { ServerConfig } from '../config/config-schema.js';
import { packageVersion } from '../core/package-version.js';
import { type ProcessMetrics, trackQueue, trackSlots } from '../metrics/process-metrics.js';
import type { DeepSearchRuntime } from '../runtime/create-runtime.js';
import type { QueueMode } from '../scale/open-queue-mode.js';
import type { RunBackend } from '../scale/run-backend.js';
import { activeTracing } from '../telemetry/start-tracing.js';
import { claimComparers } from '../watch/claims/claim-judge.js';
import { openWatchService } from '../watch/open-watch-service.js';
import type { WatchStore } from '../watch/store/watch-store.js';
import type { WatchService } from '../watch/watch-service.js';
import { createConcurrencyLimiter } from './concurrency/concurrency-limiter.js';
import { HttpError } from './http/http-error.js';
import { sendServerError } from './http/server-error-response.js';
import { createAccessLog, type LogLine } from './middleware/access-log.js';
import { createBearerAuth, createKeyCheck } from './middleware/bearer-auth.js';
import { createBodyReader } from './middleware/body-reader.js';
import { createMethodNotAllowed } from './middleware/method-not-allowed.js';
import {
  createCorsPolicy,
  createDrainGuard,
  createHostGuard,
  createJsonContentTypeGuard,
  createOriginGuard,
} from './middleware/request-guards.js';
import { createRequestSpans } from './middleware/request-spans.js';
import { createChatCompletionsRoute } from './routes/chat-completions/chat-completions-route.js';
import { createHealthRoutes } from './routes/health/health-routes.js';
import { runStoreCheck } from './routes/health/run-store-check.js';
import { createMcpRoute } from './routes/mcp/mcp-route.js';
import { createMetricsRoute } from './routes/metrics/metrics-route.js';
import { createModelsRoute } from './routes/models/models-route.js';
import { createResponsesRoute } from './routes/responses/responses-route.js';
import { createRunRoutes, localBackend } from './routes/runs/run-routes.js';
import { createWatchesDisabledRoutes, createWatchRoutes } from './routes/watches/watch-routes.js';
import { createWebUiRoute } from './routes/web-ui/web-ui-route.js';
import { serverModels } from './run-request/server-models.js';
import type { ApiRouteOptions, ServerEnv } from './server-env.js';

export interface ServerAppOptions {
  runtime: DeepSearchRuntime;
  settings: ServerConfig;
  /** Search providers a request may name (the registry's, plus the runtime's own). */
  searchProviders: readonly string[];
  log: LogLine;
  /** True once shutdown started: new requests get 503, /ready says not ready. */
  isDraining?: () => boolean;
  /** Fires when running requests must stop (shutdown grace period over). */
  shutdownSignal?: AbortSignal;
  heartbeatMs?: number;
  /**
   * Queue mode: the async run API works on the shared queue and stores (any node serves any run);
   * the runtime given is then the queued one (createQueuedRuntime), so chat runs go to workers too.
   */
  queue?: QueueMode;
  /** The process's metrics: GET /metrics (behind the API key), the slots, queue and open streams. */
  metrics?: ProcessMetrics;
  /**
   * Watches (/v1/watches): their store (beside the runs), whether this process runs the due ones
   * on a timer (`deepsearch serve`), and the server's address once it listens (run URLs).
   */
  watches?: { store: WatchStore; schedule: boolean; baseUrl: () => string | undefined };
  /** Registers what to stop when the server stops (the watch timer), before it drains. */
  onClose?: (close: () => Promise<void>) => void;
}

/**
 * The Hono app, assembled in one place: app-wide middleware in order (nosniff, request id, access
 * log, Host and Origin checks, CORS, 405), the public routes (health, the web page), the API guards
 * on /v1/* and /mcp (drain, auth, JSON content type, body read with size and time limits), then
 * each resource's sub-app mounted with `route()`. The route table is the sub-apps' own: the 405
 * middleware reads it from `app.routes`.
 */
export function createServerApp(options: ServerAppOptions): Hono<ServerEnv> {
  const { settings } = options;
  // Every log line passes through the redactor: no configured key, echoed by anyone, is written.
  const log: LogLine = (line) => options.log(options.runtime.redact(line));
  const isDraining = options.isDraining ?? (() => false);
  // With one key (or none) every request has the same owner: no share to keep between keys.
  const ownerShare = settings.apiKeys.length > 1 ? settings.keyShare : 1;
  const limiter = createConcurrencyLimiter({
    maxConcurrent: settings.maxConcurrent,
    maxQueue: settings.maxQueue,
    ownerShare,
  });
  const app = new Hono<ServerEnv>();
  app.use(async (c, next) => {
    await next();
    // No browser may read a JSON error (or any answer) as HTML or script.
    c.res.headers.set('x-content-type-options', 'nosniff');
  });
  app.use(requestId());
  app.use(createAccessLog({ log }));
  const tracing = activeTracing();
  if (tracing) app.use(createRequestSpans(tracing));
  const { metrics } = options;
  if (metrics) {
    trackSlots(metrics, limiter);
    if (options.queue) trackQueue(metrics, options.queue.queue);
    app.use(async (c, next) => {
      c.var.record.onStream = () => {
        metrics.sseStreams.inc();
        return () => metrics.sseStreams.dec();
      };
      await next();
    });
  }
  app.use(createHostGuard({ boundHost: settings.host, allowedHosts: settings.allowedHosts }));
  app.use(createOriginGuard({ corsOrigins: settings.corsOrigins }));
  const corsPolicy = createCorsPolicy({ corsOrigins: settings.corsOrigins });
  if (corsPolicy) app.use(corsPolicy);
  app.use(createMethodNotAllowed(app));

  // Public: probes and the web page (static files; it asks for a key and sends it to /v1/*).
  const keyCheck = createKeyCheck({ apiKeys: settings.apiKeys });
  const services = options.queue?.services;
  app.route(
    '/',
    createHealthRoutes({
      isDraining,
      limiter,
      keyCheck,
      // Queue mode: Redis and Postgres; one machine: the SQLite run store.
      checkServices: services ? () => services.check() : runStoreCheck(options.runtime),
    }),
  );
  app.route('/', createWebUiRoute());

  // The OpenAI-compatible API and MCP sit behind the same guards. Every POST body is read once
  // here, bounded in size and time; routes use c.req.json()/text().
  const apiGuards = [
    createDrainGuard({ isDraining }),
    createBearerAuth({ apiKeys: settings.apiKeys }),
    createJsonContentTypeGuard(),
    createBodyReader({ maxBytes: settings.maxBodyBytes, timeoutMs: settings.bodyTimeoutSeconds * 1000 }),
  ];
  for (const path of ['/v1/*', '/mcp', '/metrics']) app.use(path, ...apiGuards);
  if (metrics) app.route('/metrics', createMetricsRoute({ registry: metrics.registry }));
  const routeOptions: ApiRouteOptions = {
    runtime: options.runtime,
    limiter,
    models: serverModels,
    searchProviders: options.searchProviders,
    shutdownSignal: options.shutdownSignal ?? new AbortController().signal,
    heartbeatMs: options.heartbeatMs,
  };
  app.route('/v1/models', createModelsRoute());
  app.route('/v1/chat/completions', createChatCompletionsRoute(routeOptions));
  app.route('/v1/responses', createResponsesRoute(routeOptions));
  // One backend for the run API and the watches' checks: a check's run is a run like any other.
  const backend = options.queue ?? localBackend(routeOptions);
  app.route('/v1', createRunRoutes({ ...routeOptions, queue: backend }));
  const watches = openServerWatches(options, backend, routeOptions.shutdownSignal, isDraining);
  app.route('/v1/watches', watches ? createWatchRoutes({ watches }) : createWatchesDisabledRoutes());
  const { runtime, shutdownSignal } = routeOptions;
  app.route(
    '/mcp',
    createMcpRoute({
      runtime,
      limiter,
      shutdownSignal,
      ownerShare,
      log,
      version: packageVersion(),
      ...(watches ? { watches } : {}),
    }),
  );

  // Returned, not thrown: the 405 middleware turns a 404 of a known path into a 405, and only
  // a response (not an error) reaches it.
  app.notFound((c) =>
    sendServerError(
      new HttpError('unknown endpoint', { status: 404, type: 'not_found_error', code: 'unknown_url' }),
      c,
    ),
  );
  app.onError((error, c) => sendServerError(error, c));
  return app;
}

/**
 * The watches over the run backend (/v1/watches, the MCP `watch` tool), and with `schedule` the
 * timer that runs the due ones (stopped when the server stops; none starts while it drains).
 * None without a watch store or a run backend (runs off): /v1/watches then says why.
 */
function openServerWatches(
  options: ServerAppOptions,
  backend: RunBackend | undefined,
  shutdownSignal: AbortSignal,
  isDraining: () => boolean,
): WatchService | undefined {
  const { watches: kept, runtime } = options;
  if (!kept || !backend) return undefined;
  const onProblem = (message: string) => options.log(runtime.redact(`deepsearch: warning: ${message}`));
  const watches = openWatchService({
    config: runtime.config,
    store: kept.store,
    backend,
    baseUrl: kept.baseUrl,
    // Claims are matched by their words and values, with the configured embeddings, and the
    // model judges the pairs that stay ambiguous.
    compare: claimComparers({ llm: runtime.llm, embeddings: runtime.embedding, signal: shutdownSignal }),
    onProblem,
  });
  if (kept.schedule) {
    const scheduler = watches.startScheduler({
      checkIntervalMs: runtime.config.watch.checkIntervalMs,
      isPaused: isDraining,
      onProblem,
    });
    options.onClose?.(() => scheduler.stop());
    shutdownSignal.addEventListener('abort', () => void scheduler.stop(), { once: true });
  }
  return watches;
}
