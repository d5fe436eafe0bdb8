import type { MiddlewareHandler } from 'hono';
import type { ServerEnv } from '../server-env.js';

export type LogLine = (line: string) => void;

/**
 * One JSON line per request once it is over (a stream when its last chunk is written): request
 * id, method, path, status, duration, and for chat requests the model, tokens and outcome. Headers
 * and bodies are never logged, so keys and questions stay out of the log.
 */
export function createAccessLog(options: { log: LogLine; now?: () => number }): MiddlewareHandler<ServerEnv> {
  const now = options.now ?? (() => performance.now());
  return async (c, next) => {
    const started = now();
    const record = {};
    c.set('record', record);
    await next();
    const write = () => {
      const { finished: _finished, ...details } = c.var.record;
      options.log(
        JSON.stringify({
          time: new Date().toISOString(),
          id: c.var.requestId,
          method: c.req.method,
          path: c.req.path,
          status: c.res.status,
          durationMs: Math.round(now() - started),
          ...details,
        }),
      );
    };
    const finished = c.var.record.finished;
    // Written whether the stream ended well or not; a rejection must not go unhandled.
    if (finished) void finished.then(write, write);
    else write();
  };
}
