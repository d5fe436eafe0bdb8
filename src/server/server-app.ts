import { Hono } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { cors } from 'hono/cors';
import { requestId } from 'hono/request-id';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import type { ServerConfig } from '../config/config-schema.js';
import type { DeepSearchRuntime } from '../runtime.js';
import { createAccessLog, type LogLine } from './access-log.js';
import { createBearerAuth } from './bearer-auth.js';
import { createChatCompletionsHandler } from './chat-completions-route.js';
import { createConcurrencyLimiter } from './concurrency-limiter.js';
import { HttpError } from './http-error.js';
import { addMethodNotAllowed } from './method-not-allowed.js';
import { toErrorResponse } from './openai-error.js';
import { createResponsesHandler } from './responses-route.js';
import type { ServerEnv } from './server-env.js';
import { createModelsRoute, serverModels } from './server-models.js';

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
}

/** The Hono app: middleware in order (request id, access log, CORS, drain, auth, body size), then the routes. */
export function createServerApp(options: ServerAppOptions): Hono<ServerEnv> {
  const { settings } = options;
  const isDraining = options.isDraining ?? (() => false);
  const limiter = createConcurrencyLimiter({
    maxConcurrent: settings.maxConcurrent,
    maxQueue: settings.maxQueue,
  });
  const app = new Hono<ServerEnv>();
  app.use(requestId());
  app.use(createAccessLog({ log: options.log }));
  if (settings.corsOrigins.length > 0) {
    const origin = settings.corsOrigins.includes('*') ? '*' : [...settings.corsOrigins];
    app.use(
      cors({
        origin,
        // No fixed list: the request's Access-Control-Request-Headers are echoed, so the openai
        // SDK's x-stainless-* headers pass preflight (only for the allowed origins).
        allowHeaders: [],
        exposeHeaders: ['X-Request-Id', 'Retry-After'],
        maxAge: 600,
      }),
    );
  }
  app.get('/health', (c) => c.json({ status: 'ok' }));
  app.get('/ready', (c) =>
    isDraining()
      ? c.json({ status: 'draining' }, 503)
      : c.json({ status: 'ready', running: limiter.running, queued: limiter.queued }),
  );
  app.use('/v1/*', async (c, next) => {
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
  app.use('/v1/*', createBearerAuth({ apiKeys: settings.apiKeys }));
  app.route('/v1/models', createModelsRoute());
  const limitBody = bodyLimit({
    maxSize: settings.maxBodyBytes,
    onError: () => {
      throw new HttpError(`the request body is larger than ${settings.maxBodyBytes} bytes`, {
        status: 413,
        type: 'invalid_request_error',
        code: 'request_too_large',
      });
    },
  });
  const handlerOptions = {
    runtime: options.runtime,
    limiter,
    models: serverModels,
    searchProviders: options.searchProviders,
    shutdownSignal: options.shutdownSignal ?? new AbortController().signal,
    heartbeatMs: options.heartbeatMs,
  };
  app.post('/v1/chat/completions', limitBody, createChatCompletionsHandler(handlerOptions));
  app.post('/v1/responses', limitBody, createResponsesHandler(handlerOptions));
  addMethodNotAllowed(app, {
    '/health': ['GET'],
    '/ready': ['GET'],
    '/v1/models': ['GET'],
    '/v1/models/:id{.+}': ['GET'],
    '/v1/chat/completions': ['POST'],
    '/v1/responses': ['POST'],
  });
  app.notFound(() => {
    throw new HttpError('unknown endpoint', { status: 404, type: 'not_found_error', code: 'unknown_url' });
  });
  app.onError((error, c) => {
    const response = toErrorResponse(error);
    c.var.record.errorCode = response.body.error.code ?? undefined;
    if (response.body.error.code === 'cancelled') c.var.record.outcome = 'cancelled';
    for (const [name, value] of Object.entries(response.headers)) c.header(name, value);
    return c.json(response.body, response.status as ContentfulStatusCode);
  });
  return app;
}
