import type { MiddlewareHandler } from 'hono';
import type { Tracing } from '../../telemetry/start-tracing.js';
import type { ServerEnv } from '../server-env.js';

/**
 * A server span per request when the process traces (HTTP semantic conventions: method, route,
 * status), the child of the caller's trace when it sends W3C `traceparent`: a run the request
 * starts is traced inside it, and a queued run carries it to its worker. A streamed answer's span
 * ends with its last chunk. Headers and bodies are not put on the span.
 */
export function createRequestSpans(tracing: Tracing): MiddlewareHandler<ServerEnv> {
  const { api, tracer } = tracing;
  return async (c, next) => {
    const carrier: Record<string, string> = {};
    for (const name of ['traceparent', 'tracestate']) {
      const value = c.req.header(name);
      if (value) carrier[name] = value;
    }
    const parent = api.propagation.extract(api.context.active(), carrier);
    const span = tracer.startSpan(
      c.req.method,
      {
        kind: api.SpanKind.SERVER,
        attributes: {
          'http.request.method': c.req.method,
          'url.path': c.req.path,
          ...(c.var.requestId ? { 'deepsearch.request.id': c.var.requestId } : {}),
        },
      },
      parent,
    );
    try {
      await api.context.with(api.trace.setSpan(parent, span), next);
    } finally {
      const route = c.req.routePath;
      if (route && route !== '/*') {
        span.updateName(`${c.req.method} ${route}`);
        span.setAttribute('http.route', route);
      }
      const end = () => {
        span.setAttribute('http.response.status_code', c.res.status);
        if (c.res.status >= 500) span.setStatus({ code: api.SpanStatusCode.ERROR });
        span.end();
      };
      const finished = c.var.record?.finished;
      if (finished) void finished.then(end, end);
      else end();
    }
  };
}
