import { randomUUID } from 'node:crypto';
import { type Context, Hono } from 'hono';
import { InputError, isBlockedUrlError } from '../../../core/errors/index.js';
import { ownerShareOf } from '../../../core/fair-share.js';
import type { DeepSearchRuntime } from '../../../runtime/create-runtime.js';
import type { WatchService } from '../../../watch/watch-service.js';
import type { ConcurrencyLimiter } from '../../concurrency/concurrency-limiter.js';
import { HttpError } from '../../http/http-error.js';
import { toErrorResponse } from '../../http/openai-error.js';
import type { LogLine } from '../../middleware/access-log.js';
import type { ServerEnv } from '../../server-env.js';

type Sdk = typeof import('./mcp-session.js');

export interface McpRouteOptions {
  runtime: DeepSearchRuntime;
  /** The API's limiter: every tool call takes a slot like a chat completion does. */
  limiter: ConcurrencyLimiter;
  shutdownSignal: AbortSignal;
  log: LogLine;
  version: string;
  /** Sessions open at once (default 100). */
  maxSessions?: number;
  /** Share of the sessions one key may hold (fair-share.ts; default 1: no per-key cap). */
  ownerShare?: number;
  /** Tool calls of one session running or waiting at once (default 4). */
  maxCallsPerSession?: number;
  /** JSON-RPC messages in one POST (default 16). */
  maxBatch?: number;
  /** A session unused this long is closed. */
  idleMs?: number;
  /** The server's watches: the `watch` tool works on the session key's. */
  watches?: WatchService;
}

/**
 * POST/GET/DELETE /mcp (mounted there: this app's routes are `/`): MCP's streamable HTTP transport
 * with sessions (a client's cancellation is a separate POST, which must reach the server running
 * the call). The app's middleware has already checked Host, Origin, the API key and the body; a
 * session belongs to the key that opened it. A call also stops when the connection that carried
 * it closes, and every call at shutdown.
 */
export function createMcpRoute(options: McpRouteOptions): Hono<ServerEnv> {
  const maxSessions = options.maxSessions ?? 100;
  const sessionsPerOwner = ownerShareOf(maxSessions, options.ownerShare ?? 1);
  const maxBatch = options.maxBatch ?? 16;
  const idleMs = options.idleMs ?? 10 * 60_000;
  const sessions = new Map<string, import('./mcp-session.js').McpSession>();
  // The SDK loads on the first MCP request, not when the server starts.
  let sdk: Promise<Sdk> | undefined;
  const sweep = setInterval(() => {
    const now = Date.now();
    for (const [id, session] of sessions)
      if (session.idle() && now - session.lastUsed > idleMs) void closeSession(id);
  }, 60_000);
  sweep.unref();
  const closeSession = async (id: string) => {
    const session = sessions.get(id);
    sessions.delete(id);
    await session?.close();
  };
  options.shutdownSignal.addEventListener(
    'abort',
    () => {
      clearInterval(sweep);
      for (const id of [...sessions.keys()]) void closeSession(id);
    },
    { once: true },
  );
  const describeError = (error: unknown) => {
    // A URL the reader refuses (private address, file:) is the caller's to fix, as on the CLI.
    if (isBlockedUrlError(error)) return error.message;
    const response = toErrorResponse(error);
    if (response.detail) {
      options.log(JSON.stringify({ time: new Date().toISOString(), path: '/mcp', error: response.detail }));
    }
    return response.body.error.message;
  };

  return new Hono<ServerEnv>().on(['GET', 'POST', 'DELETE'], '/', async (c) => {
    const body = c.req.method === 'POST' ? await readJson(c) : undefined;
    if (Array.isArray(body) && body.length > maxBatch) {
      return jsonRpcError(c, 400, -32600, `a batch holds at most ${maxBatch} messages (got ${body.length})`);
    }
    const owner = c.var.owner;
    const sessionId = c.req.header('mcp-session-id');
    sdk ??= import('./mcp-session.js');
    const { openMcpSession, isInitialize } = await sdk;
    let session = sessionId ? sessions.get(sessionId) : undefined;
    // The owner is already a digest of the key (bearer-auth.ts): comparing it leaks no key.
    if (sessionId && (!session || session.owner !== owner)) {
      return jsonRpcError(c, 404, -32001, 'session not found (expired or closed): initialize a new one');
    }
    if (!session) {
      if (!isInitialize(body)) {
        return jsonRpcError(
          c,
          400,
          -32000,
          'no session: send initialize first, then its Mcp-Session-Id header',
        );
      }
      makeRoom({ sessions, owner, maxSessions, sessionsPerOwner, closeSession });
      session = await openMcpSession({
        id: randomUUID(),
        owner,
        runtime: options.runtime,
        version: options.version,
        describeError,
        acquireSlot: (signal) => options.limiter.acquire({ owner, signal }),
        maxCallsInFlight: options.maxCallsPerSession ?? 4,
        shutdownSignal: options.shutdownSignal,
        ...(options.watches ? { watches: options.watches } : {}),
        onOpen: (opened) => sessions.set(opened.id, opened),
        onClose: (closed) => sessions.delete(closed.id),
      });
    }
    session.lastUsed = Date.now();
    // A call stops when the connection that carried it closes before its answer was written.
    const stopCalls = session.trackCalls(body);
    c.req.raw.signal.addEventListener('abort', stopCalls, { once: true });
    return session.transport.handleRequest(c.req.raw, { parsedBody: body });
  });
}

type SessionEntry = { owner: string; idle(): boolean; lastUsed: number };

/**
 * Makes room for a new session of `owner`. A key at its share of the sessions closes its own least
 * recently used idle session. A full table is shared fairly: the key holding the most sessions,
 * above an even split among the keys that hold some (the newcomer counted), gives up its least
 * recently used idle one; a key at or under the even split never loses one to another key, so two
 * keys cannot lock a third out. Nothing that may be closed: a 429.
 */
function makeRoom(options: {
  sessions: Map<string, SessionEntry>;
  owner: string;
  maxSessions: number;
  sessionsPerOwner: number;
  closeSession: (id: string) => Promise<void>;
}): void {
  const { sessions, owner } = options;
  const byOwner = new Map<string, Array<[string, SessionEntry]>>();
  for (const entry of sessions) byOwner.set(entry[1].owner, [...(byOwner.get(entry[1].owner) ?? []), entry]);
  const own = byOwner.get(owner) ?? [];
  const atShare = own.length >= options.sessionsPerOwner;
  if (!atShare && sessions.size < options.maxSessions) return;
  const evenSplit = Math.max(1, Math.floor(options.maxSessions / new Set([...byOwner.keys(), owner]).size));
  // Whose sessions may go: this key's at its share; else the largest holders above the even split.
  const givers = atShare
    ? [own]
    : [...byOwner.values()]
        .filter((held) => held.length > evenSplit || (held === own && held.length >= evenSplit))
        .sort((a, b) => b.length - a.length);
  for (const held of givers) {
    const idle = held.filter(([, session]) => session.idle());
    if (idle.length === 0) continue;
    const [oldest] = idle.reduce((a, b) => (a[1].lastUsed <= b[1].lastUsed ? a : b));
    void options.closeSession(oldest);
    return;
  }
  const message = atShare
    ? `this API key already has ${own.length} MCP sessions with calls running (at most ${options.sessionsPerOwner}); close one or retry later`
    : `the server has ${sessions.size} MCP sessions open, all in use; retry later`;
  throw new HttpError(message, {
    status: 429,
    type: 'rate_limit_error',
    code: atShare ? 'owner_busy' : 'server_busy',
    headers: { 'retry-after': '5' },
  });
}

async function readJson(c: Context<ServerEnv>): Promise<unknown> {
  try {
    return JSON.parse(await c.req.text());
  } catch (error) {
    throw new InputError('the request body is not valid JSON', { code: 'invalid_json', cause: error });
  }
}

function jsonRpcError(c: Context<ServerEnv>, status: 400 | 404, code: number, message: string): Response {
  return c.json({ jsonrpc: '2.0', error: { code, message }, id: null }, status);
}
