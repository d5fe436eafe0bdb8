import { type Context, Hono } from 'hono';
import { InputError } from '../../../core/errors/index.js';
import type { WatchService } from '../../../watch/watch-service.js';
import { watchObject, watchRunObject } from '../../../watch/watch-view.js';
import { echoInput } from '../../http/echo-input.js';
import { HttpError } from '../../http/http-error.js';
import { readJsonObject } from '../../http/read-json-object.js';
import type { ServerEnv } from '../../server-env.js';

/**
 * /v1/watches (mounted at /v1/watches): questions re-run on a schedule, each check's changes.
 * One owner's watches only (another key's watch is a 404, as runs are); input errors are 400s
 * naming the field; the webhook's secret is never shown back.
 */
export function createWatchRoutes(options: { watches: WatchService }): Hono<ServerEnv> {
  const { watches } = options;
  const app = new Hono<ServerEnv>();
  // Every handler's errors pass through asHttpError (a missing watch is a 404, not a 400).
  const handle =
    (handler: (c: Context<ServerEnv>) => Promise<Response>) =>
    (c: Context<ServerEnv>): Promise<Response> =>
      handler(c).catch((error: unknown) => {
        throw asHttpError(error);
      });
  app.post(
    '/',
    handle(async (c) => {
      const watch = await watches.add(await readJsonObject(c), c.var.owner);
      c.var.record.outcome = 'created';
      return c.json(watchObject(watch), 201);
    }),
  );
  app.get(
    '/',
    handle(async (c) => {
      const listed = await watches.list(c.var.owner);
      return c.json({ object: 'list', data: listed.map(watchObject), has_more: false });
    }),
  );
  app.get(
    '/:id',
    handle(async (c) => {
      const { watch, runs } = await watches.show(c.req.param('id') ?? '', c.var.owner);
      return c.json({ ...watchObject(watch), runs: runs.map(watchRunObject) });
    }),
  );
  app.post(
    '/:id/run',
    handle(async (c) => {
      const { watch, done } = await watches.startNow(c.req.param('id') ?? '', c.var.owner);
      // The check goes on after the answer; its failure is stored as a failed check.
      done.catch(() => undefined);
      c.var.record.outcome = 'started';
      return c.json({ object: 'watch.check', watch_id: watch.id, status: 'running' }, 202);
    }),
  );
  app.patch(
    '/:id',
    handle(async (c) => {
      const watch = await watches.update(c.req.param('id') ?? '', c.var.owner, await readJsonObject(c));
      return c.json(watchObject(watch));
    }),
  );
  app.delete(
    '/:id',
    handle(async (c) => {
      const watch = await watches.remove(c.req.param('id') ?? '', c.var.owner);
      return c.json({ id: watch.id, object: 'watch.deleted', deleted: true });
    }),
  );
  return app;
}

/** A missing (or another owner's) watch is a 404, a check already going a 409; the rest as they are. */
function asHttpError(error: unknown): unknown {
  if (!InputError.isInstance(error)) return error;
  if (error.code === 'watch_not_found')
    return new HttpError(error.message.replace(/\(watch list[^)]*\)/, '(GET /v1/watches lists them)'), {
      status: 404,
      type: 'not_found_error',
      code: 'watch_not_found',
    });
  if (error.code === 'watch_busy')
    return new HttpError(echoInput(error.message), {
      status: 409,
      type: 'invalid_request_error',
      code: 'watch_busy',
    });
  return error;
}

/** Without a store to keep them (runs off): a 503 that says why, on every path. */
export function createWatchesDisabledRoutes(): Hono<ServerEnv> {
  const app = new Hono<ServerEnv>();
  app.all('*', () => {
    throw new HttpError(
      'watches are not kept on this server (runs.enabled is off): they need the run store',
      {
        status: 503,
        type: 'server_error',
        code: 'runs_disabled',
      },
    );
  });
  return app;
}
