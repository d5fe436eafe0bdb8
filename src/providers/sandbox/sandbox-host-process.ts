import { type ChildProcess, spawn } from 'node:child_process';
import type { Socket } from 'node:net';
import type { QuickJsLimits } from './run-in-quickjs.js';
import { sandboxHostCommand } from './sandbox-host-command.js';
import {
  type HostReply,
  type HostRequest,
  type HostRequestBody,
  hostErrorPrefix,
} from './sandbox-host-protocol.js';

/** Why a request got no reply. */
export type HostFailure =
  | { reason: 'aborted' }
  | { reason: 'deadline' }
  /** The host exited or was killed by someone else; `detail` says how. */
  | { reason: 'exited'; detail: string };

export type HostAnswer = { ok: true; reply: HostReply } | ({ ok: false } & HostFailure);

export interface RequestOptions {
  signal?: AbortSignal;
  /** Wall-clock milliseconds before the host is killed. */
  deadlineMs: number;
}

/** One sandbox host process, answering one request at a time. */
export interface SandboxHost {
  /** False from kill() on, before its exit is heard. */
  readonly alive: boolean;
  /**
   * Sends a request and waits for its reply. On abort or at the deadline the host is killed
   * (SIGKILL: a guest run keeps its thread busy, so nothing gentler would be heard).
   */
  request(message: HostRequestBody, options: RequestOptions): Promise<HostAnswer>;
  kill(): void;
}

export interface StartSandboxHostOptions {
  limits: QuickJsLimits;
  signal?: AbortSignal;
  /** Time for the process to start and load the engine. */
  startTimeoutMs: number;
}

export type StartedHost = { ok: true; host: SandboxHost } | ({ ok: false } & HostFailure);

const maxStderrChars = 2000;
/** Hosts still running, killed when this process exits (a crash of ours closes their IPC channel). */
const liveHosts = new Set<ChildProcess>();
let exitHookInstalled = false;

/**
 * Starts a sandbox host (sandbox-host-main.ts) with an empty environment, Node's permission model
 * and an IPC channel, and waits until it has loaded the engine. An idle host does not keep this
 * process alive; it is killed when this process exits.
 */
export async function startSandboxHost(options: StartSandboxHostOptions): Promise<StartedHost> {
  if (options.signal?.aborted) return { ok: false, reason: 'aborted' };
  const command = await sandboxHostCommand();
  if (options.signal?.aborted) return { ok: false, reason: 'aborted' };
  const child = spawn(process.execPath, command.args, {
    cwd: command.cwd,
    // No API keys, no NODE_OPTIONS: nothing of this process's environment reaches the host.
    env: {},
    stdio: ['ignore', 'ignore', 'pipe', 'ipc'],
    serialization: 'json',
  });
  const host = wrapChild(child);
  const started = await host.request(
    { type: 'init', limits: options.limits },
    { signal: options.signal, deadlineMs: options.startTimeoutMs },
  );
  if (started.ok) return { ok: true, host };
  host.kill();
  if (started.reason !== 'exited') return started;
  return { ok: false, reason: 'exited', detail: `could not start (${started.detail})` };
}

function wrapChild(child: ChildProcess): SandboxHost {
  let gone: string | undefined;
  // Set at kill: the exit is heard later, and until then the host must not be handed a request.
  let killed = false;
  let stderr = '';
  let nextId = 1;
  const goneListeners = new Set<() => void>();
  const markGone = (detail: string) => {
    if (gone !== undefined) return;
    gone = detail;
    liveHosts.delete(child);
    for (const listener of goneListeners) listener();
  };
  child.on('exit', (code, signal) => {
    const how = signal ? `killed by ${signal}` : `exit code ${code}`;
    const said = lastWords(stderr);
    markGone(said ? `${how}: ${said}` : how);
  });
  // A process that could not be spawned at all emits only 'error'.
  child.on('error', (error) => {
    if (child.pid === undefined) markGone(error.message);
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
    kill,
    request(message, { signal, deadlineMs }) {
      return new Promise<HostAnswer>((resolve) => {
        if (gone !== undefined) return resolve({ ok: false, reason: 'exited', detail: gone });
        if (signal?.aborted) return resolve({ ok: false, reason: 'aborted' });
        const id = nextId++;
        const finish = (answer: HostAnswer) => {
          clearTimeout(timer);
          child.off('message', onMessage);
          goneListeners.delete(onGone);
          signal?.removeEventListener('abort', onAbort);
          setRef(false);
          resolve(answer);
        };
        const onMessage = (reply: HostReply) => {
          if (reply?.id === id) finish({ ok: true, reply });
        };
        const onGone = () => finish({ ok: false, reason: 'exited', detail: gone ?? 'unknown' });
        const onAbort = () => {
          kill();
          finish({ ok: false, reason: 'aborted' });
        };
        const timer = setTimeout(() => {
          kill();
          finish({ ok: false, reason: 'deadline' });
        }, deadlineMs);
        child.on('message', onMessage);
        goneListeners.add(onGone);
        signal?.addEventListener('abort', onAbort, { once: true });
        setRef(true);
        // A failed send means the channel closed: the exit that follows settles the request.
        child.send({ ...message, id } as HostRequest, () => {});
      });
    },
  };
}

/** The host's own error line, or else the end of what Node printed (a crash before its code ran). */
function lastWords(stderr: string): string {
  const lines = stderr.trim().split('\n');
  const own = lines.findLast((line) => line.startsWith(hostErrorPrefix));
  if (own) return own.slice(hostErrorPrefix.length);
  const error = lines.find((line) => /^\w*Error\b/.test(line));
  return (error ?? lines.slice(-2).join(' ')).trim();
}

function track(child: ChildProcess): void {
  liveHosts.add(child);
  if (exitHookInstalled) return;
  exitHookInstalled = true;
  process.on('exit', () => {
    for (const host of liveHosts) host.kill('SIGKILL');
  });
}
