import { type ChildProcess, spawn } from 'node:child_process';
import type { Socket } from 'node:net';
import type { ChildCommand } from './child-command.js';
import { residentBytes } from './process-memory.js';

/** Why a request got no reply. */
export type ChildFailure =
  | { reason: 'aborted' }
  | { reason: 'deadline' }
  /** Its resident memory passed the request's limit (then it was killed), or V8 ran out of heap. */
  | { reason: 'memory'; bytes?: number }
  /** The child exited or was killed by someone else; `detail` says how. */
  | { reason: 'exited'; detail: string };

export type ChildAnswer<Reply> = { ok: true; reply: Reply } | ({ ok: false } & ChildFailure);

export interface ChildRequestOptions {
  signal?: AbortSignal;
  /** Wall-clock milliseconds before the child is killed. */
  deadlineMs: number;
  /** Resident bytes past which the child is killed while it works on this request (Linux). */
  memoryLimitBytes?: number;
}

/** A request before the child gives it its id (each member of a union without its id). */
export type RequestBody<Request> = Request extends unknown ? Omit<Request, 'id'> : never;

/** A Node child process answering one request at a time over IPC, each reply carrying its id. */
export interface IpcChild<Request, Reply> {
  /** False from kill() on, before its exit is heard. */
  readonly alive: boolean;
  readonly pid: number | undefined;
  /**
   * Sends a request and waits for its reply. On abort, at the deadline or past the memory limit
   * the child is killed (SIGKILL: a busy child's thread would hear nothing gentler).
   */
  request(message: RequestBody<Request>, options: ChildRequestOptions): Promise<ChildAnswer<Reply>>;
  kill(): void;
}

export interface SpawnIpcChildOptions {
  command: ChildCommand;
  /** 'advanced' passes bytes (Uint8Array) as they are; 'json' is plain data. */
  serialization: 'json' | 'advanced';
  /** The child's own last line on stderr before it exits with an error starts with this. */
  errorPrefix: string;
}

const maxStderrChars = 2000;
const memoryPollMs = 100;
/** Children still running, killed when this process exits (a crash of ours closes their channel). */
const liveChildren = new Set<ChildProcess>();
let exitHookInstalled = false;

/**
 * Spawns Node on the command with an empty environment (no API keys, no NODE_OPTIONS) and an IPC
 * channel. An idle child does not keep this process alive; it is killed when this process exits.
 */
export function spawnIpcChild<Request extends { id: number }, Reply extends { id: number }>(
  options: SpawnIpcChildOptions,
): IpcChild<Request, Reply> {
  const child = spawn(process.execPath, options.command.args, {
    cwd: options.command.cwd,
    env: {},
    stdio: ['ignore', 'ignore', 'pipe', 'ipc'],
    serialization: options.serialization,
  });
  return wrapChild<Request, Reply>(child, options.errorPrefix);
}

function wrapChild<Request extends { id: number }, Reply extends { id: number }>(
  child: ChildProcess,
  errorPrefix: string,
): IpcChild<Request, Reply> {
  let gone: ChildFailure | undefined;
  // Set at kill: the exit is heard later, and until then the child must not be handed a request.
  let killed = false;
  let stderr = '';
  let nextId = 1;
  const goneListeners = new Set<() => void>();
  const markGone = (failure: ChildFailure) => {
    if (gone !== undefined) return;
    gone = failure;
    liveChildren.delete(child);
    for (const listener of goneListeners) listener();
  };
  child.on('exit', (code, signal) => markGone(exitFailure(code, signal, stderr, errorPrefix)));
  // A process that could not be spawned at all emits only 'error'.
  child.on('error', (error) => {
    if (child.pid === undefined) markGone({ reason: 'exited', detail: error.message });
  });
  child.stderr?.setEncoding('utf8');
  child.stderr?.on('data', (chunk: string) => {
    stderr = (stderr + chunk).slice(-maxStderrChars);
  });
  if (child.pid !== undefined) track(child);
  const setRef = (on: boolean) => {
    for (const handle of [child, child.channel, child.stderr as Socket | null]) {
      if (on) handle?.ref();
      else handle?.unref();
    }
  };
  setRef(false);
  const kill = () => {
    if (gone !== undefined || killed) return;
    killed = true;
    child.kill('SIGKILL');
  };
  return {
    get alive() {
      return gone === undefined && !killed;
    },
    get pid() {
      return child.pid;
    },
    kill,
    request(message, { signal, deadlineMs, memoryLimitBytes }) {
      return new Promise<ChildAnswer<Reply>>((resolve) => {
        if (gone !== undefined) return resolve({ ok: false, ...gone });
        if (signal?.aborted) return resolve({ ok: false, reason: 'aborted' });
        const id = nextId++;
        const finish = (answer: ChildAnswer<Reply>) => {
          clearTimeout(timer);
          clearInterval(memoryWatch);
          child.off('message', onMessage);
          goneListeners.delete(onGone);
          signal?.removeEventListener('abort', onAbort);
          setRef(false);
          resolve(answer);
        };
        const stop = (failure: ChildFailure) => {
          kill();
          finish({ ok: false, ...failure });
        };
        const onMessage = (reply: Reply) => {
          if (reply?.id === id) finish({ ok: true, reply });
        };
        const onGone = () => finish({ ok: false, ...(gone ?? { reason: 'exited', detail: 'unknown' }) });
        const onAbort = () => stop({ reason: 'aborted' });
        const timer = setTimeout(() => stop({ reason: 'deadline' }), deadlineMs);
        const memoryWatch =
          memoryLimitBytes !== undefined && child.pid !== undefined
            ? watchMemory(child.pid, memoryLimitBytes, (bytes) => stop({ reason: 'memory', bytes }))
            : undefined;
        child.on('message', onMessage);
        goneListeners.add(onGone);
        signal?.addEventListener('abort', onAbort, { once: true });
        setRef(true);
        // A failed send means the channel closed: the exit that follows settles the request.
        child.send({ ...message, id }, () => {});
      });
    },
  };
}

/** Polls the child's resident memory; calls over() once when it passes the limit. */
function watchMemory(pid: number, limitBytes: number, over: (bytes: number) => void): NodeJS.Timeout {
  let reading = false;
  const timer = setInterval(() => {
    if (reading) return;
    reading = true;
    void residentBytes(pid).then((bytes) => {
      reading = false;
      if (bytes !== undefined && bytes > limitBytes) over(bytes);
    });
  }, memoryPollMs);
  return timer;
}

function exitFailure(
  code: number | null,
  signal: NodeJS.Signals | null,
  stderr: string,
  errorPrefix: string,
): ChildFailure {
  // V8 prints this before it aborts: the heap limit (--max-old-space-size) was reached.
  if (/heap out of memory|Allocation failed/i.test(stderr)) return { reason: 'memory' };
  const how = signal ? `killed by ${signal}` : `exit code ${code}`;
  const said = lastWords(stderr, errorPrefix);
  return { reason: 'exited', detail: said ? `${how}: ${said}` : how };
}

/** The child's own error line, or else the end of what Node printed (a crash before its code ran). */
function lastWords(stderr: string, errorPrefix: string): string {
  const lines = stderr.trim().split('\n');
  const own = lines.findLast((line) => line.startsWith(errorPrefix));
  if (own) return own.slice(errorPrefix.length);
  const error = lines.find((line) => /^\w*Error\b/.test(line));
  return (error ?? lines.slice(-2).join(' ')).trim();
}

function track(child: ChildProcess): void {
  liveChildren.add(child);
  if (exitHookInstalled) return;
  exitHookInstalled = true;
  process.on('exit', () => {
    for (const running of liveChildren) running.kill('SIGKILL');
  });
}
