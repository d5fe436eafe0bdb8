import type { RequestIdVariables } from 'hono/request-id';
import type { DeepSearchRuntime } from '../runtime/create-runtime.js';
import type { ConcurrencyLimiter } from './concurrency/concurrency-limiter.js';

/** What a handler tells the access log about its request; filled in as the request goes. */
export interface RequestRecord {
  model?: string;
  stream?: boolean;
  tokens?: number;
  /** answered | cancelled | failed: how a chat request ended. */
  outcome?: string;
  errorCode?: string;
  /** What failed, for the log only (the client got a generic message); redacted when written. */
  error?: string;
  /** Settles when a streamed response is over; the log line waits for it. */
  finished?: Promise<void>;
  /** Called when an event stream opens (the open-streams gauge); returns what to call when it ends. */
  onStream?: () => () => void;
}

export type ServerEnv = {
  /** owner: who the request's runs belong to (bearer-auth.ts), set on every /v1 route. */
  Variables: RequestIdVariables & { record: RequestRecord; owner: string };
};

/** What the routes that run the agent are made with (chat completions, responses, the run API). */
export interface ApiRouteOptions {
  runtime: DeepSearchRuntime;
  /** The server's one limiter: every run, tool call and outline takes a slot from it. */
  limiter: ConcurrencyLimiter;
  models: readonly string[];
  /** Search providers a request may name (the registry's, plus the runtime's own). */
  searchProviders: readonly string[];
  /** Fires when the shutdown grace period is over: runs still going are cancelled. */
  shutdownSignal: AbortSignal;
  heartbeatMs?: number;
}
