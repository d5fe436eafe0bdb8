import { createHash, randomUUID } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { serve } from '@hono/node-server';
import { Hono } from 'hono';
import { streamSSE } from 'hono/streaming';
import { HttpError } from '../../src/server/http/http-error.js';
import { toErrorResponse } from '../../src/server/http/openai-error.js';
import { createBearerAuth } from '../../src/server/middleware/bearer-auth.js';
import { createWebUiRoute } from '../../src/server/routes/web-ui/web-ui-route.js';

/** What a scripted run does: its events in order; 'hold' keeps it running until it is cancelled. */
export interface FakeRunScript {
  events: Array<Record<string, unknown> | 'hold'>;
  /** How the run ends after its last event (default completed). */
  status?: 'completed' | 'failed';
  result?: Record<string, unknown>;
  error?: { message: string; type: string; code: string };
}

export interface FakeRunsApiOptions {
  /** Keys the server requires (none: open, like a server without `server.apiKeys`). */
  apiKeys?: string[];
  /** The script for each created run, from its request body. */
  script: (body: Record<string, unknown>) => FakeRunScript;
  /** Pause between events, so the page sees a live run (default 15 ms). */
  eventGapMs?: number;
  /** POST /v1/research/outline's answer for a body (absent: 404, as a server without it). */
  outline?: (body: Record<string, unknown>) => Record<string, unknown>;
  /** Whether the report is offered as PDF too (a server with Chromium). */
  pdf?: boolean;
}

export interface FakeRun {
  id: string;
  owner: string;
  status: 'queued' | 'running' | 'completed' | 'failed' | 'cancelled';
  body: Record<string, unknown>;
  created_at: number;
  finished_at?: number;
  events: Array<Record<string, unknown>>;
  script: FakeRunScript;
  listeners: Set<() => void>;
}

export interface FakeRunsApi {
  /** Base URL without a trailing slash: the page is at `${url}/`. */
  url: string;
  runs: Map<string, FakeRun>;
  /** Method, path and Authorization header of every request, to check what the page sent. */
  requests: Array<{
    method: string;
    path: string;
    url: string;
    authorization: string | undefined;
    body?: unknown;
  }>;
  close(): Promise<void>;
}

const finishedStatuses = new Set(['completed', 'failed', 'cancelled']);

/**
 * The async run API contract (POST/GET/DELETE /v1/research, its events as SSE, GET /v1/runs) on
 * 127.0.0.1 with scripted runs, serving the built page through the server's own web UI route (so
 * its CSP and static rules are those users get). For the page's browser tests until the real
 * routes land; the tests take a base URL, so they can run against the real server too.
 */
export async function startFakeRunsApi(options: FakeRunsApiOptions): Promise<FakeRunsApi> {
  const runs = new Map<string, FakeRun>();
  const requests: FakeRunsApi['requests'] = [];
  const gap = options.eventGapMs ?? 15;
  const app = new Hono();
  const ownerOf = (authorization: string | undefined) =>
    options.apiKeys?.length
      ? createHash('sha256')
          .update(authorization?.replace(/^Bearer\s+/i, '') ?? '')
          .digest('hex')
      : 'local';

  app.use(async (c, next) => {
    requests.push({
      method: c.req.method,
      path: c.req.path,
      url: c.req.url,
      authorization: c.req.header('authorization'),
    });
    await next();
  });
  app.route('/', createWebUiRoute());
  app.use('/v1/*', createBearerAuth({ apiKeys: options.apiKeys ?? [] }));

  const find = (id: string, authorization: string | undefined): FakeRun => {
    const run = runs.get(id);
    if (!run || run.owner !== ownerOf(authorization)) {
      throw new HttpError(`no run with id '${id}'`, {
        status: 404,
        type: 'not_found_error',
        code: 'run_not_found',
      });
    }
    return run;
  };
  const publish = (run: FakeRun, body: Record<string, unknown>) => {
    // A research section's deep search sends its events with its own run id, as the real one does.
    run.events.push({ runId: run.id, ...body, seq: run.events.length, at: Date.now() });
    for (const listener of run.listeners) listener();
  };
  const finish = (run: FakeRun, status: FakeRun['status']) => {
    if (finishedStatuses.has(run.status)) return;
    run.status = status;
    run.finished_at = Math.floor(Date.now() / 1000);
    for (const listener of run.listeners) listener();
  };
  const play = async (run: FakeRun) => {
    run.status = 'running';
    for (const step of run.script.events) {
      await new Promise((resolve) => setTimeout(resolve, gap));
      if (run.status !== 'running') return;
      if (step === 'hold') return; // until DELETE cancels it
      publish(run, step);
    }
    finish(run, run.script.status ?? 'completed');
  };
  const view = (run: FakeRun) => ({
    id: run.id,
    object: 'run',
    status: run.status,
    mode: run.body.mode ?? 'search',
    question: run.body.question,
    created_at: run.created_at,
    ...(run.finished_at ? { finished_at: run.finished_at } : {}),
    options: Object.fromEntries(
      Object.entries(run.body).filter(([key]) => key !== 'question' && key !== 'mode'),
    ),
    ...(run.status === 'completed' && run.script.result ? { result: run.script.result } : {}),
    ...(run.status === 'failed' && run.script.error ? { error: run.script.error } : {}),
    ...(reportOf(run) ? { report_formats: ['md', 'html', 'json', ...(options.pdf ? ['pdf'] : [])] } : {}),
    resumable: false,
  });

  app.post('/v1/research/outline', async (c) => {
    const body = (await c.req.json().catch(() => ({}))) as Record<string, unknown>;
    requests.at(-1)!.body = body;
    if (!options.outline)
      throw new HttpError('unknown endpoint', { status: 404, type: 'not_found_error', code: 'unknown_url' });
    return c.json({ object: 'research.outline', question: body.question, ...options.outline(body) });
  });
  app.post('/v1/research', async (c) => {
    const body = (await c.req.json().catch(() => undefined)) as Record<string, unknown> | undefined;
    requests.at(-1)!.body = body;
    if (!body || typeof body.question !== 'string' || !body.question.trim()) {
      throw new HttpError('question must be a non-empty string', {
        status: 400,
        type: 'invalid_request_error',
        code: 'invalid_value',
        param: 'question',
      });
    }
    const run: FakeRun = {
      id: `run_${randomUUID()}`,
      owner: ownerOf(c.req.header('authorization')),
      status: 'queued',
      body,
      created_at: Math.floor(Date.now() / 1000),
      events: [],
      script: options.script(body),
      listeners: new Set(),
    };
    runs.set(run.id, run);
    void play(run);
    return c.json(
      {
        id: run.id,
        object: 'run',
        status: run.status,
        mode: body.mode ?? 'search',
        question: body.question,
        created_at: run.created_at,
      },
      202,
    );
  });
  for (const prefix of ['/v1/research', '/v1/runs']) {
    app.get(`${prefix}/:id`, (c) => c.json(view(find(c.req.param('id'), c.req.header('authorization')))));
    app.delete(`${prefix}/:id`, (c) => {
      const run = find(c.req.param('id'), c.req.header('authorization'));
      if (finishedStatuses.has(run.status)) {
        runs.delete(run.id);
        return c.json({ id: run.id, object: 'run', deleted: true });
      }
      finish(run, 'cancelled');
      return c.json({ id: run.id, object: 'run', status: 'cancelled' });
    });
    // The report as a file: its markdown, a minimal HTML page, or PDF bytes (only where offered).
    app.get(`${prefix}/:id/report`, (c) => {
      const report = reportOf(find(c.req.param('id'), c.req.header('authorization')));
      const format = c.req.query('format') ?? 'md';
      if (!report || (format === 'pdf' && !options.pdf) || !['md', 'html', 'pdf', 'json'].includes(format))
        throw new HttpError(`no ${format} report`, {
          status: 400,
          type: 'invalid_request_error',
          code: 'no_report',
        });
      const title = String(report.title ?? 'report');
      const body =
        format === 'pdf'
          ? '%PDF-1.4\n% a fake PDF\n'
          : format === 'html'
            ? `<!doctype html><title>${title.replace(/[<&]/g, '')}</title><pre>${String(report.markdown).replace(/[<&]/g, '')}</pre>`
            : format === 'json'
              ? JSON.stringify(report)
              : String(report.markdown);
      const type = {
        md: 'text/markdown',
        html: 'text/html',
        pdf: 'application/pdf',
        json: 'application/json',
      }[format]!;
      return c.body(body, 200, {
        'content-type': type,
        'content-disposition': `attachment; filename="${title.toLowerCase().replace(/[^a-z0-9]+/g, '-')}.${format}"`,
      });
    });
    app.get(`${prefix}/:id/events`, (c) => {
      const run = find(c.req.param('id'), c.req.header('authorization'));
      const after = Number(c.req.header('last-event-id') ?? c.req.query('after') ?? -1);
      return streamSSE(c, async (stream) => {
        let next = Number.isFinite(after) ? after + 1 : 0;
        for (;;) {
          while (next < run.events.length) {
            const event = run.events[next++]!;
            await stream.writeSSE({
              id: String(event.seq),
              event: String(event.type),
              data: JSON.stringify(event),
            });
          }
          if (finishedStatuses.has(run.status)) break;
          await new Promise<void>((resolve) => {
            const wake = () => {
              run.listeners.delete(wake);
              resolve();
            };
            run.listeners.add(wake);
            stream.onAbort(wake);
          });
          if (stream.aborted) return;
        }
        await stream.writeSSE({ event: 'done', data: JSON.stringify({ status: run.status }) });
      });
    });
  }
  app.get('/v1/runs', (c) => {
    const owner = ownerOf(c.req.header('authorization'));
    const q = c.req.query('q')?.toLowerCase();
    const before = c.req.query('before');
    const limit = Math.min(100, Number(c.req.query('limit') ?? 20) || 20);
    const matching = [...runs.values()]
      .filter((run) => run.owner === owner)
      .filter((run) => before === undefined || run.created_at < Number(before))
      .filter((run) => !q || `${run.body.question} ${answerOf(run) ?? ''}`.toLowerCase().includes(q))
      .reverse();
    return c.json({
      object: 'list',
      data: matching.slice(0, limit).map((run) => ({
        id: run.id,
        object: 'run',
        status: run.status,
        mode: run.body.mode ?? 'search',
        question: run.body.question,
        created_at: run.created_at,
        finished_at: run.finished_at ?? null,
        answer_preview: answerOf(run)?.slice(0, 200) ?? null,
        total_tokens: null,
      })),
      has_more: matching.length > limit,
    });
  });
  app.notFound(() => {
    throw new HttpError('unknown endpoint', { status: 404, type: 'not_found_error', code: 'unknown_url' });
  });
  app.onError((error, c) => {
    const response = toErrorResponse(error);
    for (const [name, value] of Object.entries(response.headers)) c.header(name, value);
    return c.json(response.body, response.status as 400);
  });

  const server = serve({ fetch: app.fetch, hostname: '127.0.0.1', port: 0 });
  await new Promise<void>((resolve) => server.once('listening', () => resolve()));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    runs,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        for (const run of runs.values()) finish(run, 'cancelled');
        (server as unknown as { closeAllConnections?: () => void }).closeAllConnections?.();
        server.close(() => resolve());
      }),
  };
}

/** A completed research run's report (bare, as the real server stores it, or under `report`). */
function reportOf(run: FakeRun): Record<string, unknown> | undefined {
  if (run.status !== 'completed' || run.body.mode !== 'research' || !run.script.result) return undefined;
  const result = run.script.result as Record<string, unknown>;
  return (typeof result.markdown === 'string' ? result : result.report) as
    | Record<string, unknown>
    | undefined;
}

function answerOf(run: FakeRun): string | undefined {
  const answer = run.script.result?.answer;
  return run.status === 'completed' && typeof answer === 'string' ? answer : undefined;
}
