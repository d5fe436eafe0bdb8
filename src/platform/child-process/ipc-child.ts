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
  /**
   * The child exited or was killed by someone else; `detail` says how. `displaced`: the request
   * was still waiting behind another in the child when it went (that one's page was the cause, or
   * the child was retired), so it can be sent again to another child.
   */
  | { reason: 'exited'; detail: string; displaced?: boolean };

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

/**
 * A Node child process answering requests over IPC in the order they were sent, one at a time,
 * each reply carrying its id. Requests may be sent while others are pending (they wait in the
 * child, so it never idles while this process is too busy to hear a reply at once); a request's
 * deadline and memory watch start when the one before it is answered, i.e. when the child begins it.
 */
export interface IpcChild<Request, Reply> {
  /** False from kill() or retire() on, before its exit is heard. */
  readonly alive: boolean;
  readonly pid: number | undefined;
  /** Requests sent and not yet answered. */
  readonly pending: number;
  /**
   * Sends a request and waits for its reply. On abort, at the deadline or past the memory limit
   * of the request the child is working on, the child is killed (SIGKILL: a busy child's thread
   * would hear nothing gentler); the requests waiting behind it fail as `displaced`.
   */
  request(message: RequestBody<Request>, options: ChildRequestOptions): Promise<ChildAnswer<Reply>>;
  kill(): void;
  /** Takes no more requests (alive turns false) and is killed once those pending are answered. */
  retire(): void;
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
  const markGone = (failure: ChildFailure) => {
    if (gone !== undefined) return;
    gone = failure;
    liveChildren.delete(child);
    failAll(failure);
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
  // Requests in the order sent; the first is the one the child works on, and the only one whose
  // deadline and memory watch run.
  const queue: Pending<Reply>[] = [];
  let retiring = false;
  const settle = (entry: Pending<Reply>, answer: ChildAnswer<Reply>) => {
    const index = queue.indexOf(entry);
    if (index < 0) return;
    queue.splice(index, 1);
    entry.disarm();
    entry.answer(answer);
    if (queue.length === 0) {
      setRef(false);
      if (retiring) kill();
    } else if (index === 0) queue[0]!.arm();
  };
  /** The child went (or is being killed): the first request gets why, those behind it are displaced. */
  const failAll = (failure: ChildFailure) => {
    const [first, ...behind] = queue;
    if (first) settle(first, { ok: false, ...failure });
    for (const entry of behind) {
      settle(entry, {
        ok: false,
        reason: 'exited',
        detail: 'stopped for another request to the same process',
        displaced: true,
      });
    }
  };
  child.on('message', (reply: Reply) => {
    const entry = queue.find((pending) => pending.id === reply?.id);
    if (entry) settle(entry, { ok: true, reply });
  });
  return {
    get alive() {
      return gone === undefined && !killed && !retiring;
    },
    get pid() {
      return child.pid;
    },
    get pending() {
      return queue.length;
    },
    kill,
    retire() {
      retiring = true;
      if (queue.length === 0) kill();
    },
    request(message, { signal, deadlineMs, memoryLimitBytes }) {
      return new Promise<ChildAnswer<Reply>>((resolve) => {
        if (gone !== undefined) return resolve({ ok: false, ...gone });
        if (signal?.aborted) return resolve({ ok: false, reason: 'aborted' });
        // Killed or retired (a task's second request, after its first was answered): never sent.
        if (killed || retiring) {
          return resolve({ ok: false, reason: 'exited', detail: 'the process was retired', displaced: true });
        }
        const id = nextId++;
        let timer: NodeJS.Timeout | undefined;
        let memoryWatch: NodeJS.Timeout | undefined;
        const stop = (failure: ChildFailure) => {
          // The child is working on this request: only killing it stops the work.
          if (queue[0] === entry) {
            kill();
            failAll(failure);
          } else {
            // Still waiting in the child: answered now, but kept in line, since the child will
            // work on it (under its deadline when its turn comes) and its reply is dropped.
            entry.answer({ ok: false, ...failure });
          }
        };
        const onAbort = () => stop({ reason: 'aborted' });
        let answered = false;
        const entry: Pending<Reply> = {
          id,
          answer: (answer) => {
            if (answered) return;
            answered = true;
            signal?.removeEventListener('abort', onAbort);
            resolve(answer);
          },
          arm() {
            timer = setTimeout(() => stop({ reason: 'deadline' }), deadlineMs);
            if (memoryLimitBytes !== undefined && child.pid !== undefined) {
              memoryWatch = watchMemory(child.pid, memoryLimitBytes, (bytes) =>
                stop({ reason: 'memory', bytes }),
              );
            }
          },
          disarm() {
            clearTimeout(timer);
            clearInterval(memoryWatch);
          },
        };
        queue.push(entry);
        if (queue.length === 1) entry.arm();
        signal?.addEventListener('abort', onAbort, { once: true });
        setRef(true);
        // A failed send means the channel closed: the exit that follows settles the request.
        child.send({ ...message, id }, () => {});
      });
    },
  };
}

interface Pending<Reply> {
  readonly id: number;
  /** Settles its promise (once; later calls do nothing). */
  answer(answer: ChildAnswer<Reply>): void;
  /** Starts its deadline and memory watch: the child works on it now. */
  arm(): void;
  disarm(): void;
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
