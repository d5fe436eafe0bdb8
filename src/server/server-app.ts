import { Hono } from 'hono';
import { cors } from 'hono/cors';
import { requestId } from 'hono/request-id';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import type { ServerConfig } from '../config/config-schema.js';
import { packageVersion } from '../core/package-version.js';
import type { DeepSearchRuntime } from '../runtime/create-runtime.js';
import type { QueueMode } from '../scale/open-queue-mode.js';
import { createAccessLog, type LogLine } from './access-log.js';
import { createBearerAuth, createKeyCheck } from './bearer-auth.js';
import { createChatCompletionsHandler } from './chat-completions-route.js';
import { createConcurrencyLimiter } from './concurrency-limiter.js';
import { HttpError } from './http-error.js';
import { createMcpRoute } from './mcp-route.js';
import { addMethodNotAllowed } from './method-not-allowed.js';
import { createQueuedResearchRoutes } from './queued-research-routes.js';
import { createBodyReader } from './read-request-body.js';
import {
  allowedOrigins,
  createHostGuard,
  createJsonContentTypeGuard,
  createOriginGuard,
} from './request-guards.js';
import { createResearchRoutes } from './research-routes.js';
import { createResponsesHandler } from './responses-route.js';
import type { ServerEnv } from './server-env.js';
import { toServerErrorResponse } from './server-error-response.js';
import { createModelsRoute, serverModels } from './server-models.js';
import { createWebUiRoute } from './web-ui-route.js';

export { serverModels } from './server-models.js';

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
}

function runsDisabled(): never {
  throw new HttpError(
    'runs are not recorded on this server (runs.enabled is off): the run API needs the run store',
    {
      status: 503,
      type: 'server_error',
      code: 'runs_disabled',
    },
  );
}

/**
 * The Hono app: middleware in order (request id, access log, Host and Origin checks, CORS, drain,
 * auth, JSON content type, body read with size and time limits), then the routes.
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
  const keyCheck = createKeyCheck({ apiKeys: settings.apiKeys });
  const app = new Hono<ServerEnv>();
  app.use(async (c, next) => {
    await next();
    // No browser may read a JSON error (or any answer) as HTML or script.
    c.res.headers.set('x-content-type-options', 'nosniff');
  });
  app.use(requestId());
  app.use(createAccessLog({ log }));
  app.use(createHostGuard({ boundHost: settings.host, allowedHosts: settings.allowedHosts }));
  app.use(createOriginGuard({ corsOrigins: settings.corsOrigins }));
  if (settings.corsOrigins.length > 0) {
    // The request's own Origin is echoed when it is an allowed one, matched as the origin guard
    // matches it: a setting written `http://App.example/` still sends the header browsers need.
    const allowed = allowedOrigins(settings.corsOrigins);
    const origin = settings.corsOrigins.includes('*')
      ? '*'
      : (requestOrigin: string) => (allowed(requestOrigin) ? requestOrigin : null);
    app.use(
      cors({
        origin,
        // No fixed list: the request's Access-Control-Request-Headers are echoed, so the openai
        // SDK's x-stainless-* headers pass preflight (only for the allowed origins).
        allowHeaders: [],
        exposeHeaders: ['X-Request-Id', 'Retry-After', 'Mcp-Session-Id'],
        maxAge: 600,
      }),
    );
  }
  app.get('/health', (c) => c.json({ status: 'ok' }));
  app.get('/ready', (c) => {
    if (isDraining()) return c.json({ status: 'draining' }, 503);
    // A probe needs no key; how busy the server is, is told only to a client holding one.
    if (keyCheck(c.req.header('authorization')) === undefined) return c.json({ status: 'ready' });
    return c.json({ status: 'ready', running: limiter.running, queued: limiter.queued });
  });
  // The web UI: static files only, no key needed to load it; the page asks for one and sends it
  // to /v1/* like any client.
  app.route('/', createWebUiRoute());
  // The OpenAI-compatible API and MCP sit behind the same guards: drain, key, JSON, bounded body.
  const auth = createBearerAuth({ apiKeys: settings.apiKeys });
  const jsonOnly = createJsonContentTypeGuard();
  // Every POST body is read once here, bounded in size and time; routes use c.req.json()/text().
  const bodyReader = createBodyReader({
    maxBytes: settings.maxBodyBytes,
    timeoutMs: settings.bodyTimeoutSeconds * 1000,
  });
  for (const path of ['/v1/*', '/mcp']) {
    app.use(path, async (c, next) => {
      if (isDraining()) {
        c.header('connection', 'close');
        throw new HttpError('the server is shutting down', {
          status: 503,
          type: 'server_error',
          code: 'shutting_down',
        });
      }
      return next();
    });
    app.use(path, auth);
    app.use(path, jsonOnly);
    app.use(path, bodyReader);
  }
  app.route('/v1/models', createModelsRoute());
  const handlerOptions = {
    runtime: options.runtime,
    limiter,
    models: serverModels,
    searchProviders: options.searchProviders,
    shutdownSignal: options.shutdownSignal ?? new AbortController().signal,
    heartbeatMs: options.heartbeatMs,
  };
  app.post('/v1/chat/completions', createChatCompletionsHandler(handlerOptions));
  app.post('/v1/responses', createResponsesHandler(handlerOptions));
  const store = options.runtime.runs;
  if (options.queue)
    app.route('/v1', createQueuedResearchRoutes({ ...handlerOptions, shared: options.queue }));
  else if (store) app.route('/v1', createResearchRoutes({ ...handlerOptions, store }));
  else
    for (const path of ['/v1/research', '/v1/research/*', '/v1/runs', '/v1/runs/*'])
      app.all(path, runsDisabled);
  const mcp = createMcpRoute({
    runtime: options.runtime,
    limiter,
    ownerShare,
    shutdownSignal: handlerOptions.shutdownSignal,
    log,
    version: packageVersion(),
  });
  app.on(['GET', 'POST', 'DELETE'], '/mcp', mcp);
  addMethodNotAllowed(app, {
    '/health': ['GET'],
    '/ready': ['GET'],
    '/': ['GET'],
    '/v1/models': ['GET'],
    '/v1/models/:id{.+}': ['GET'],
    '/v1/chat/completions': ['POST'],
    '/v1/responses': ['POST'],
    '/v1/research': ['POST'],
    '/v1/research/outline': ['POST'],
    '/v1/research/:id': ['GET', 'DELETE'],
    '/v1/research/:id/report': ['GET'],
    '/v1/research/:id/events': ['GET'],
    '/v1/research/:id/resume': ['POST'],
    '/v1/runs': ['GET'],
    '/v1/runs/:id': ['GET', 'DELETE'],
    '/v1/runs/:id/events': ['GET'],
    '/v1/runs/:id/report': ['GET'],
    '/mcp': ['GET', 'POST', 'DELETE'],
  });
  app.notFound(() => {
    throw new HttpError('unknown endpoint', { status: 404, type: 'not_found_error', code: 'unknown_url' });
  });
  app.onError((error, c) => {
    const response = toServerErrorResponse(error, c);
    for (const [name, value] of Object.entries(response.headers)) c.header(name, value);
    return c.json(response.body, response.status as ContentfulStatusCode);
  });
  return app;
}
