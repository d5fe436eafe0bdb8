import type { Context } from 'hono';
import { anySignal } from '../../core/link-signals.js';
import type { ChatRunRequest } from '../run-request/run-request.js';
import type { ServerEnv } from '../server-env.js';
import type { ConcurrencyLimiter } from './concurrency-limiter.js';

export interface StreamOutcome {
  outcome: string;
  tokens?: number;
  errorCode?: string;
}

export interface RequestSlot {
  /** The client's connection joined with the server's shutdown: aborts the run. */
  signal: AbortSignal;
  /** Runs a JSON answer in the slot, logs its outcome and frees the slot. */
  respond<T>(answer: () => Promise<{ body: T; tokens: number }>): Promise<T>;
  /** For a stream: called once when it is over, it logs the outcome and frees the slot. */
  onStreamEnd(): (outcome: StreamOutcome) => void;
}

/**
 * Takes a concurrency slot for a checked request (waiting in the queue, or a 429) and ties the
 * access log's record and the slot's release to how the answer ends, for every API alike.
 */
export async function takeRequestSlot(
  c: Context<ServerEnv>,
  options: { limiter: ConcurrencyLimiter; shutdownSignal: AbortSignal },
  request: ChatRunRequest,
): Promise<RequestSlot> {
  const record = c.var.record;
  record.model = request.model;
  record.stream = request.stream;
  const signal = anySignal(c.req.raw.signal, options.shutdownSignal);
  const release = await options.limiter.acquire({ owner: c.var.owner, signal });
  return {
    signal,
    async respond(answer) {
      try {
        const { body, tokens } = await answer();
        record.outcome = 'answered';
        record.tokens = tokens;
        return body;
      } finally {
        release();
      }
    },
    onStreamEnd() {
      let finish: () => void = () => undefined;
      record.finished = new Promise<void>((resolve) => {
        finish = resolve;
      });
      return (outcome) => {
        Object.assign(record, outcome);
        release();
        finish();
      };
    },
  };
}
