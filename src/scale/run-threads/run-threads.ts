import { MessageChannel, type MessagePort, Worker } from 'node:worker_threads';
import { configOrigins } from '../../config/config-origins.js';
import type { DeepSearchConfig } from '../../config/config-schema.js';
import { AbortedError, DeepSearchError } from '../../core/errors/index.js';
import type { AgentEvent, AgentEventListener } from '../../events/agent-events.js';
import { acquireExtractionPool } from '../../extraction/worker/shared-extraction-pool.js';
import type { RunStore } from '../../runs/run-store.js';
import type { DeepSearchRuntime, RunOutcome, RunRequest } from '../../runtime/create-runtime.js';
import { injectTraceContext } from '../../telemetry/trace-context.js';
import { applyRunWrites } from './forwarded-run-writes.js';
import { serveExtractions } from './remote-extractor.js';
import type {
  FromRunThread,
  RunCancel,
  RunThreadData,
  ThreadRunRequest,
  ToRunThread,
} from './run-thread-protocol.js';
import { runThreadEntry } from './thread-entry.js';
import { fromThreadError, toThreadError } from './thread-errors.js';

export interface RunThreadsOptions {
  /** The server's config: each thread's runtime is made from it. */
  config: DeepSearchConfig;
  /** How many threads run the runs (at least 1). */
  threads: number;
  /** Another better-sqlite3 build to load (DEEPSEARCH_SQLITE_MODULE, resolved). */
  sqliteModule?: string;
  /** A thread's warning (the cache cannot load, tracing cannot start). */
  warn?: (message: string) => void;
  /** The thread's module (tests start a stand-in); default run-thread-main. */
  entry?: URL;
  /**
   * The server's run store (SQLite), which writes the threads' runs' events, checkpoints and ends;
   * without it (runs not recorded) the threads record nothing either.
   */
  store?: RunStore;
  /** How long close() waits for a thread to send its spans and end before stopping it. */
  closeTimeoutMs?: number;
}

/** The server's run threads: each run goes to the thread with the fewest runs going. */
export interface RunThreads {
  readonly size: number;
  run(request: RunRequest): Promise<RunOutcome>;
  /** Ends the threads: their runs end cancelled, their spans are sent, their runtimes released. */
  close(): Promise<void>;
}

interface PendingRun {
  /** The run's id once known (asked for, resumed, or read from its first event). */
  runId?: string;
  listeners: AgentEventListener[];
  resolve(outcome: RunOutcome): void;
  reject(error: unknown): void;
}

interface RunThread {
  worker: Worker;
  /** Where its runs' cancellations go (run-cancels.ts reads them there). */
  cancels: MessagePort;
  runs: Map<number, PendingRun>;
  exited: Promise<void>;
}

/**
 * Runs in worker threads of this process, so a server uses another core: the server's thread
 * keeps the HTTP side (requests, streams, the run API's reads) and the threads do the agent's work
 * (LLM calls and their parsing, searches, reads, the recording). A run's events come back as it
 * makes them, those of one turn of the thread's event loop in one message with the turn's writes
 * (stored in one transaction); cancelling the caller's signal cancels the run in its thread. A
 * thread that dies fails the runs it had (as a crash of the run would) and is started again.
 */
export function startRunThreads(options: RunThreadsOptions): RunThreads {
  const data: Omit<RunThreadData, 'extractions' | 'cancels'> = {
    config: options.config,
    origins: configOrigins(options.config),
    forwardWrites: options.store !== undefined,
    ...(options.sqliteModule ? { sqliteModule: options.sqliteModule } : {}),
  };
  // One pool for the process: the server's own reads (MCP read_url) and every thread's.
  const extraction = acquireExtractionPool(options.config.reader.extraction);
  const entry = options.entry ? Promise.resolve(options.entry) : runThreadEntry();
  let nextId = 1;
  let closing = false;
  const threads: Array<Promise<RunThread>> = [];

  const receive = (thread: RunThread, message: FromRunThread) => {
    if (message.type === 'turn') {
      // The turn's writes first (stored before its events are relayed, and before any later
      // message: a run's end is stored when the message saying it is done is read).
      const replies = options.store ? applyRunWrites(options.store, message.writes) : [];
      if (replies.length > 0) thread.worker.postMessage({ type: 'written', replies } satisfies ToRunThread);
      for (const { id, events } of message.events) {
        const run = thread.runs.get(id);
        if (!run) continue;
        run.runId ??= events[0]?.runId;
        for (const event of events) relay(run.listeners, event);
      }
      return;
    }
    if (message.type === 'ready') return;
    if (message.type === 'warning') return options.warn?.(message.message);
    const run = thread.runs.get(message.id);
    if (!run) return;
    thread.runs.delete(message.id);
    if (message.type === 'done') run.resolve(message.outcome);
    else run.reject(fromThreadError(message.error));
  };

  const start = (index: number): Promise<RunThread> =>
    entry.then((url) => {
      const channel = new MessageChannel();
      serveExtractions(channel.port1, extraction.extractor);
      const cancels = new MessageChannel();
      const worker = new Worker(url, {
        workerData: {
          ...data,
          extractions: channel.port2,
          cancels: cancels.port2,
        } satisfies RunThreadData,
        transferList: [channel.port2, cancels.port2],
      });
      let exit: () => void = () => {};
      const thread: RunThread = {
        worker,
        cancels: cancels.port1,
        runs: new Map(),
        exited: new Promise((resolve) => (exit = resolve)),
      };
      worker.on('message', (message: FromRunThread) => receive(thread, message));
      let failure: Error | undefined;
      worker.on('error', (error) => {
        failure = error;
      });
      worker.on('exit', (code) => {
        exit();
        channel.port1.close();
        cancels.port1.close();
        const error = closing
          ? new AbortedError('the server is stopping')
          : new DeepSearchError(
              `the run's thread stopped${failure ? `: ${failure.message}` : ` (exit code ${code})`}`,
              { code: 'run_failed', ...(failure ? { cause: failure } : {}) },
            );
        for (const run of thread.runs.values()) {
          if (!closing && run.runId) recordLost(run.runId, error);
          run.reject(error);
        }
        thread.runs.clear();
        if (!closing) threads[index] = start(index);
      });
      return thread;
    });
  for (let index = 0; index < Math.max(1, options.threads); index++) threads.push(start(index));

  /** A run whose thread died ends failed in the store, not running for as long as this process lives. */
  const recordLost = (runId: string, error: Error) => {
    try {
      if (options.store?.get(runId)?.status === 'running')
        options.store.finish(runId, {
          status: 'failed',
          error: { message: error.message, type: 'server_error', code: 'run_failed' },
        });
    } catch {
      // The store's own failure: the run is left as it was.
    }
  };

  /** The thread with the fewest runs going (the first of them on a tie). */
  const pick = async (): Promise<RunThread> => {
    const all = await Promise.all(threads);
    return all.reduce((best, thread) => (thread.runs.size < best.runs.size ? thread : best));
  };

  return {
    size: threads.length,
    async run(request) {
      const { signal, onEvent, observers, ...rest } = request;
      if (closing) throw new AbortedError('the server is stopping');
      if (signal?.aborted) throw new AbortedError(undefined, { cause: signal.reason });
      const thread = await pick();
      const id = nextId++;
      const listeners = [onEvent, ...(observers ?? [])].filter(
        (listener): listener is AgentEventListener => listener !== undefined,
      );
      const post = (message: ToRunThread) => thread.worker.postMessage(message);
      const cancel = () =>
        thread.cancels.postMessage({
          id,
          reason: toThreadError(signal?.reason ?? new AbortedError()),
        } satisfies RunCancel);
      try {
        return await new Promise<RunOutcome>((resolve, reject) => {
          const runId = 'resume' in rest ? rest.resume : rest.runId;
          thread.runs.set(id, { ...(runId ? { runId } : {}), listeners, resolve, reject });
          const trace = injectTraceContext();
          post({ type: 'run', id, request: rest as ThreadRunRequest, ...(trace ? { trace } : {}) });
          signal?.addEventListener('abort', cancel, { once: true });
        });
      } finally {
        signal?.removeEventListener('abort', cancel);
      }
    },
    async close() {
      if (closing) return;
      closing = true;
      const timeoutMs = options.closeTimeoutMs ?? 5000;
      await Promise.all(
        threads.map(async (started) => {
          const thread = await started.catch(() => undefined);
          if (!thread) return;
          thread.worker.postMessage({ type: 'close' } satisfies ToRunThread);
          const timer = setTimeout(() => void thread.worker.terminate(), timeoutMs);
          await thread.exited;
          clearTimeout(timer);
        }),
      );
      extraction.release();
    },
  };
}

/** An observer that throws is the caller's problem, never the run's (as with a run in this thread). */
function relay(listeners: readonly AgentEventListener[], event: AgentEvent): void {
  for (const listener of listeners) {
    try {
      listener(event);
    } catch {
      // detached in spirit: the run goes on for the others
    }
  }
}

/**
 * The server's runtime with its deep searches and research run in `threads`; everything else
 * (one plain LLM call, the structured answer, the run store the run API reads) stays its own.
 * close() releases the runtime; the threads are closed by their owner (awaited: their spans).
 */
export function withRunThreads(runtime: DeepSearchRuntime, threads: RunThreads): DeepSearchRuntime {
  return new Proxy(runtime, {
    get(target, key, receiver) {
      if (key === 'run') return threads.run;
      return Reflect.get(target, key, receiver);
    },
  });
}
