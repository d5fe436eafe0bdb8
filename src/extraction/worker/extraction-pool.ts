import { setPriority } from 'node:os';
import type { ExtractionConfig } from '../../config/config-schema.js';
import { AbortedError, ProviderError } from '../../core/errors/index.js';
import {
  type ChildPool,
  createChildPool,
  type PooledChild,
  type StartedChild,
} from '../../platform/child-process/child-pool.js';
import { type ChildFailure, type IpcChild, spawnIpcChild } from '../../platform/child-process/ipc-child.js';
import { displayUrl } from '../../platform/http/describe-network-error.js';
import { type ParserKind, parserFor } from '../content-kind.js';
import { contentLimitsOf, overLimitError } from '../content-limits.js';
import type { ExtractedContent } from '../fetched-to-page.js';
import type { ContentExtractor, ContentInput, ExtractOptions } from './content-extractor.js';
import { extractionCommand, heapFlag } from './extraction-command.js';
import { extractionFailureError } from './extraction-failure.js';
import {
  type ExtractionReply,
  type ExtractionRequest,
  extractionErrorPrefix,
} from './extraction-protocol.js';
import { extractionStats, recordSample } from './extraction-stats.js';

/** An extraction process and the parsers it has loaded. */
interface ExtractionProcess extends PooledChild {
  readonly ipc: IpcChild<ExtractionRequest, ExtractionReply>;
  readonly pid: number | undefined;
  /** Each parser's load, asked once (a read and prepare() may both want HTML). */
  readonly loading: Map<ParserKind, Promise<Loaded>>;
}

type Loaded = { ok: true } | ({ ok: false } & ChildFailure);

export interface ExtractionPool extends ContentExtractor {
  /** Kills every extraction process; a later read starts new ones. */
  close(): void;
  /** Process ids of the extraction processes alive now (tests and the benchmark measure them). */
  readonly pids: readonly number[];
}

/** Time for a process to start, or to load a parser, apart from any job's deadline. */
const startTimeoutMs = 20_000;
/** A process idle this long after a read is asked to give back what its reads left. */
const idleTidyMs = 3_000;

/**
 * Pages sent to one process before it has answered the earlier ones: it starts the next as soon as
 * it sends a reply, so it does not idle while a busy server is slow to hear the reply (measured
 * under 200 streams: a 4 ms page held its process 47 ms). A page's deadline starts when its turn
 * comes; a page waiting behind one whose process is killed is sent again to another.
 */
const jobsPerProcess = 4;

type Outcome =
  | { ok: true; value: { ok: true } | ({ ok: false } & ChildFailure) }
  | ({ ok: false } & ChildFailure);

function isDisplaced(outcome: Outcome): boolean {
  const failure = outcome.ok ? outcome.value : outcome;
  return !failure.ok && failure.reason === 'exited' && failure.displaced === true;
}

/** Keeps an idle process whose memory came back after a collection; replaces the others. */
async function tidy(child: ExtractionProcess): Promise<'keep' | 'replace'> {
  const answer = await child.ipc.request({ type: 'tidy' }, { deadlineMs: startTimeoutMs });
  return answer.ok && answer.reply.type === 'tidied' && !answer.reply.retire ? 'keep' : 'replace';
}

/**
 * A pool of `concurrency` extraction processes (extraction-main.ts), started on first use: each
 * page or document is parsed in one of them, so this process's event loop only moves bytes. A job
 * past `timeoutSeconds` or `memoryMb` (resident memory, polled) gets its process killed, and the
 * read fails naming the limit; the next job starts a new process. A process idle for a few
 * seconds whose reads left memory behind is replaced by a fresh one. Child processes rather than
 * worker threads: a worker's resourceLimits cap V8's heap but not ArrayBuffers, and the memory a
 * killed worker held stayed with the process (a 400 MB PDF stream: 1.4 GB after terminate()).
 */
export function createExtractionPool(settings: ExtractionConfig): ExtractionPool {
  const limits = contentLimitsOf(settings);
  const memoryLimitBytes = settings.memoryMb * 1024 * 1024;
  const pool: ChildPool<ExtractionProcess> = createChildPool({
    size: settings.concurrency,
    depth: jobsPerProcess,
    start: (signal) => startExtractionProcess(settings.memoryMb, signal),
    idle: {
      afterMs: idleTidyMs,
      tidy,
      // The fresh process loads the parsers its predecessor had, so the next read does not wait.
      replaced: async (fresh, old) => {
        await Promise.all([...old.loading.keys()].map((parser) => loadParser(fresh, parser, undefined)));
      },
    },
  });
  return {
    async extract(input: ContentInput, options: ExtractOptions = {}): Promise<ExtractedContent> {
      const parser = parserFor(input.fetched);
      const asked = performance.now();
      let sent = asked;
      const attempt = () =>
        pool.withChild(options.signal, async (child) => {
          sent = performance.now();
          recordSample(extractionStats.waitMs, sent - asked);
          const loaded = parser ? await loadParser(child, parser, options.signal) : undefined;
          if (loaded && !loaded.ok) return loaded;
          const answer = await child.ipc.request(
            { type: 'extract', input, limits },
            { signal: options.signal, deadlineMs: settings.timeoutSeconds * 1000, memoryLimitBytes },
          );
          // The process could not give back what the job left: the jobs after get a new one.
          if (answer.ok && 'retire' in answer.reply && answer.reply.retire) child.ipc.retire();
          return answer;
        });
      let outcome = await attempt();
      // Waiting behind another page when that page got its process killed: this one did nothing
      // wrong, so it goes to another process (a page behind a hostile one twice in a row fails).
      for (let retry = 0; retry < 2 && isDisplaced(outcome); retry++) outcome = await attempt();
      const answer = outcome.ok ? outcome.value : outcome;
      extractionStats.jobs++;
      recordSample(extractionStats.roundTripMs, performance.now() - sent);
      extractionStats.bytesIn += input.fetched.bytes.byteLength;
      if (!answer.ok) throw failureError(answer, input, settings);
      if (answer.reply.type === 'extracted') {
        const { page } = answer.reply.content;
        extractionStats.bytesOut += page.markdown.length + page.text.length;
        return answer.reply.content;
      }
      if (answer.reply.type === 'failed') throw extractionFailureError(answer.reply.error);
      throw failureError({ reason: 'exited', detail: 'answered out of turn' }, input, settings);
    },
    async prepare(options: { processes?: number } = {}) {
      // Processes started in the background, each loading the HTML parser (most reads are pages);
      // one at a time, so the first is ready soonest (a read coming meanwhile waits for it rather
      // than starting another), and the others are ready for a step that reads several pages.
      const processes = Math.min(options.processes ?? settings.concurrency, settings.concurrency);
      for (let warmed = 0; warmed < processes; warmed++) {
        const started = await pool.warm().catch(() => undefined);
        if (!started?.ok || (await loadParser(started.child, 'html', undefined)).ok === false) return;
      }
    },
    close: () => pool.close(),
    get pids() {
      return pool.children.flatMap((child) => (child.pid === undefined ? [] : [child.pid]));
    },
  };
}

/**
 * Has the process load a parser before its first job that needs it: loading is not counted in the
 * job's deadline (a busy machine takes a second or more to load PDF.js), and the process counts
 * what loading holds in its memory baseline.
 */
function loadParser(
  child: ExtractionProcess,
  parser: ParserKind,
  signal: AbortSignal | undefined,
): Promise<Loaded> {
  let loading = child.loading.get(parser);
  if (!loading) {
    loading = requestLoad(child, parser);
    child.loading.set(parser, loading);
    // A failed load (the process died) is asked again of the next process, not of this one.
    void loading.then((loaded) => {
      if (!loaded.ok) child.loading.delete(parser);
    });
  }
  if (!signal) return loading;
  if (signal.aborted) return Promise.resolve({ ok: false, reason: 'aborted' });
  return new Promise((resolve) => {
    const onAbort = () => resolve({ ok: false, reason: 'aborted' });
    signal.addEventListener('abort', onAbort, { once: true });
    void loading.then((loaded) => {
      signal.removeEventListener('abort', onAbort);
      resolve(loaded);
    });
  });
}

async function requestLoad(child: ExtractionProcess, parser: ParserKind): Promise<Loaded> {
  const answer = await child.ipc.request({ type: 'load', parser }, { deadlineMs: startTimeoutMs });
  if (answer.ok || answer.reason !== 'deadline') return answer.ok ? { ok: true } : answer;
  return {
    ok: false,
    reason: 'exited',
    detail: `did not load its ${parser} parser within ${startTimeoutMs / 1000} s`,
  };
}

async function startExtractionProcess(
  memoryMb: number,
  signal: AbortSignal | undefined,
): Promise<StartedChild<ExtractionProcess>> {
  if (signal?.aborted) return { ok: false, reason: 'aborted' };
  const command = await extractionCommand();
  const child = spawnIpcChild<ExtractionRequest, ExtractionReply>({
    command: { ...command, args: [heapFlag(memoryMb), ...command.args] },
    serialization: 'advanced',
    errorPrefix: extractionErrorPrefix,
  });
  lowerPriority(child.pid);
  const started = await child.request({ type: 'start' }, { signal, deadlineMs: startTimeoutMs });
  if (started.ok) return { ok: true, child: extractionProcess(child) };
  child.kill();
  if (started.reason === 'deadline') {
    return { ok: false, reason: 'exited', detail: `did not start within ${startTimeoutMs / 1000} s` };
  }
  return started.reason === 'exited'
    ? { ...started, detail: `could not start (${started.detail})` }
    : started;
}

function extractionProcess(ipc: IpcChild<ExtractionRequest, ExtractionReply>): ExtractionProcess {
  return {
    ipc,
    loading: new Map(),
    get alive() {
      return ipc.alive;
    },
    get pid() {
      return ipc.pid;
    },
    kill: () => ipc.kill(),
  };
}

/**
 * Parsing yields to the process that asked for it: on a busy machine the server's event loop (its
 * health checks, other requests) gets the CPU first.
 */
function lowerPriority(pid: number | undefined): void {
  if (pid === undefined) return;
  try {
    setPriority(pid, 10);
  } catch {
    // Not allowed here (some containers): the process runs at normal priority.
  }
}

function failureError(failure: ChildFailure, input: ContentInput, settings: ExtractionConfig): Error {
  const url = displayUrl(input.fetched.url);
  const { providerId } = input;
  switch (failure.reason) {
    case 'aborted':
      return new AbortedError('the read was cancelled');
    case 'deadline':
      return overLimitError(`${url} took more than ${settings.timeoutSeconds} s to read; it was stopped`, {
        providerId,
        limit: 'timeoutSeconds',
      });
    case 'memory':
      return overLimitError(`${url} needed more than ${settings.memoryMb} MB to read; it was stopped`, {
        providerId,
        limit: 'memoryMb',
      });
    case 'exited':
      return new ProviderError(`${url} could not be read: the extraction process ${failure.detail}`, {
        providerId,
        code: 'page_unreadable',
      });
  }
}
