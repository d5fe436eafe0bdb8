import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import { isInitializeRequest, isJSONRPCRequest } from '@modelcontextprotocol/sdk/types.js';
import { linkSignals } from '../../../core/link-signals.js';
import { createMcpServer } from '../../../mcp/create-mcp-server.js';
import type { DeepSearchRuntime } from '../../../runtime/create-runtime.js';
import type { WatchService } from '../../../watch/watch-service.js';
import { HttpError } from '../../http/http-error.js';

/** One client's MCP session on the HTTP server: its MCP server, transport and running calls. */
export interface McpSession {
  readonly id: string;
  /** The owner (bearer-auth.ts: the key's digest) that opened it: another key cannot use it. */
  readonly owner: string;
  readonly transport: WebStandardStreamableHTTPServerTransport;
  lastUsed: number;
  /** No call or task running. */
  idle(): boolean;
  /** The tool calls of a POST body: the returned function stops those still running. */
  trackCalls(body: unknown): () => void;
  close(): Promise<void>;
}

export function isInitialize(body: unknown): boolean {
  return Array.isArray(body) ? body.some(isInitializeRequest) : isInitializeRequest(body);
}

/**
 * A session whose id the transport sends with its answer to initialize (`onOpen` then stores it).
 * This module holds the SDK imports, so the server loads them on the first MCP request only.
 */
export async function openMcpSession(options: {
  id: string;
  owner: string;
  runtime: DeepSearchRuntime;
  version: string;
  describeError: (error: unknown) => string;
  acquireSlot: (signal: AbortSignal) => Promise<() => void>;
  /** Tool calls of this session running or waiting for a slot at once; more are refused. */
  maxCallsInFlight: number;
  shutdownSignal: AbortSignal;
  watches?: WatchService;
  onOpen: (session: McpSession) => void;
  onClose: (session: McpSession) => void;
}): Promise<McpSession> {
  const calls = new Map<string | number, ReturnType<typeof linkSignals>>();
  let inFlight = 0;
  const server = createMcpServer({
    runtime: options.runtime,
    owner: options.owner,
    ...(options.watches ? { watches: options.watches } : {}),
    version: options.version,
    describeError: options.describeError,
    // One client cannot make the server's queue its own: past its cap a call fails at once.
    acquireSlot: async (signal) => {
      if (inFlight >= options.maxCallsInFlight) throw sessionBusy(options.maxCallsInFlight);
      inFlight++;
      const release = await options.acquireSlot(signal).catch((error: unknown) => {
        inFlight--;
        throw error;
      });
      let released = false;
      return () => {
        if (released) return;
        released = true;
        inFlight--;
        release();
      };
    },
    callScope: (requestId) => {
      // Stopped by shutdown, or by trackCalls when the connection that carried it closes.
      const link = linkSignals([options.shutdownSignal]);
      calls.set(requestId, link);
      return {
        signal: link.signal,
        end: () => {
          link.unlink();
          calls.delete(requestId);
        },
      };
    },
  });
  const transport = new WebStandardStreamableHTTPServerTransport({
    sessionIdGenerator: () => options.id,
    onsessioninitialized: () => options.onOpen(session),
  });
  const session: McpSession = {
    id: options.id,
    owner: options.owner,
    transport,
    lastUsed: Date.now(),
    idle: () => calls.size === 0,
    trackCalls(body) {
      const ids = (Array.isArray(body) ? body : [body])
        // A task (params.task) outlives the POST that started it: only tasks/cancel or the session stops it.
        .filter(
          (message) =>
            isJSONRPCRequest(message) &&
            message.method === 'tools/call' &&
            message.params?.task === undefined,
        )
        .map((request) => (request as { id: string | number }).id);
      return () => {
        for (const id of ids) calls.get(id)?.abort(new Error('the client closed the connection'));
      };
    },
    async close() {
      // Closing the server aborts every call still running and ends the session's streams.
      await server.close();
    },
  };
  // Set before connect, which chains its own handler after it.
  transport.onclose = () => options.onClose(session);
  await server.connect(transport);
  return session;
}

function sessionBusy(max: number): HttpError {
  return new HttpError(
    `this MCP session is busy: it already has ${max} tool calls running or waiting; wait for one to finish`,
    { status: 429, type: 'rate_limit_error', code: 'session_busy', headers: { 'retry-after': '1' } },
  );
}
