import type { MessagePort } from 'node:worker_threads';
import type { DeepSearchConfig } from '../../config/config-schema.js';
import type { AgentEvent } from '../../events/agent-events.js';
import type { RunOutcome, RunRequest } from '../../runtime/create-runtime.js';
import type { TraceCarrier } from '../../telemetry/trace-context.js';
import type { ForwardedRunWrite, RunWriteReply } from './forwarded-run-writes.js';
import type { ThreadError } from './thread-errors.js';

/** A run request without what cannot cross threads (the signal and the listeners stay with the caller). */
export type ThreadRunRequest = RunRequest extends infer Request
  ? Request extends RunRequest
    ? Omit<Request, 'signal' | 'onEvent' | 'observers'>
    : never
  : never;

/** What a run thread is started with (its workerData). */
export interface RunThreadData {
  /** The server's config: the thread's runtime is made from it, as the server's is. */
  config: DeepSearchConfig;
  /** What set the config's settings (config-origins.ts), for the same hints in error messages. */
  origins?: { origins: Array<[string, string]>; fileName: string | undefined };
  /** Where the thread's pages are parsed: the server's extraction pool (remote-extractor.ts). */
  extractions: MessagePort;
  /** Where its runs' cancellations come (RunCancel; run-cancels.ts reads them). */
  cancels: MessagePort;
  /** The server's thread writes the runs' events, checkpoints and ends (it was given the run store). */
  forwardWrites: boolean;
  /** DEEPSEARCH_SQLITE_MODULE resolved: another build of better-sqlite3 to load. */
  sqliteModule?: string;
}

/** From the server's thread to a run thread. */
export type ToRunThread =
  | { type: 'run'; id: number; request: ThreadRunRequest; trace?: TraceCarrier }
  /** Runs are over: send the buffered spans, release the runtime, end. */
  | { type: 'close' }
  /** The answers to a turn's writes (forwarded-run-writes.ts), in one message. */
  | { type: 'written'; replies: RunWriteReply[] };

/** A run's cancellation, on the thread's `cancels` port; the reason is the caller's signal's. */
export interface RunCancel {
  id: number;
  reason?: ThreadError;
}

/** From a run thread to the server's thread; a run's events come before its end, in order. */
export type FromRunThread =
  | { type: 'ready' }
  | RunThreadTurn
  | { type: 'done'; id: number; outcome: RunOutcome }
  | { type: 'failed'; id: number; error: ThreadError }
  | { type: 'warning'; message: string };

/**
 * What the thread's runs made in one turn of its event loop, in one message: the writes of their
 * recordings, made by the server's run store in one transaction (forwarded-run-writes.ts), then
 * each run's events.
 */
export interface RunThreadTurn {
  type: 'turn';
  writes: ForwardedRunWrite[];
  events: Array<{ id: number; events: AgentEvent[] }>;
}
