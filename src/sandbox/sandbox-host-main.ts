import { engineFailure, loadQuickJs, type QuickJsEngine } from './load-quickjs.js';
import { readGuestOutcome } from './read-guest-outcome.js';
import { type QuickJsLimits, runInQuickJs } from './run-in-quickjs.js';
import {
  type HostReply,
  type HostRequest,
  hostErrorPrefix,
  type SandboxHostDescription,
} from './sandbox-host-protocol.js';

/**
 * The sandbox host: a child process of the agent (started by sandbox-host-process.ts) that runs
 * the model's code in QuickJS, one request at a time, so a long run blocks this process and never
 * the agent's event loop. It has an empty environment and, where Node allows, the permission
 * model (read access to its own code and the engine's packages only). It ends when the agent's
 * process goes away (its IPC channel closes).
 */
let limits: QuickJsLimits | undefined;
let engine: Promise<QuickJsEngine> | undefined;

// A parent killed with SIGKILL cannot stop a run in progress, and 'disconnect' is only heard
// between runs: the guest is stopped when this process is orphaned (re-parented), then it exits.
const parentPid = process.ppid;
const orphaned = (): boolean => process.ppid !== parentPid;

process.on('disconnect', () => process.exit(0));
process.on('message', (message: HostRequest) => {
  handle(message).catch((error: unknown) => {
    // Only loading the engine can fail here; the parent reports this line with the exit.
    process.stderr.write(`${hostErrorPrefix}${describeError(error)}\n`);
    process.exit(1);
  });
});

/** One line: a denied read names the path the permission model refused. */
function describeError(error: unknown): string {
  const { message, code, resource } = (error ?? {}) as { message?: string; code?: string; resource?: string };
  const detail = [code, resource].filter(Boolean).join(' ');
  return `${message ?? String(error)}${detail ? ` (${detail})` : ''}`;
}

function reply(message: HostReply): void {
  process.send?.(message);
}

async function handle(message: HostRequest): Promise<void> {
  switch (message.type) {
    case 'init':
      limits = message.limits;
      engine = loadQuickJs(limits.memoryBytes);
      await engine;
      reply({ type: 'ready', id: message.id });
      return;
    case 'run':
      reply({ type: 'result', id: message.id, ...(await run(message.code, message.inputJson)) });
      return;
    case 'describe':
      reply({ type: 'description', id: message.id, description: describe(message.paths) });
      return;
  }
}

async function run(
  code: string,
  inputJson: string,
): Promise<Omit<Extract<HostReply, { type: 'result' }>, 'type' | 'id'>> {
  if (!limits) throw new Error('a run before init');
  engine ??= loadQuickJs(limits.memoryBytes);
  const loaded = await engine;
  const began = performance.now();
  const ms = () => Math.round(performance.now() - began);
  const growFailuresBefore = loaded.growFailures();
  try {
    const outcome = runInQuickJs({ module: loaded.module, code, inputJson, limits, shouldStop: orphaned });
    if (orphaned()) process.exit(0);
    const heapExhausted = loaded.growFailures() > growFailuresBefore;
    return { result: readGuestOutcome(outcome, limits, { heapExhausted }), ms: ms() };
  } catch (error) {
    // The engine itself failed (the thread's stack ran out inside WebAssembly, an abort when
    // memory ran out where QuickJS could not throw): its state is unknown, so the next run gets a
    // fresh module and memory.
    engine = undefined;
    return { result: { ok: false, error: engineFailure(error, loaded, limits), logs: [] }, ms: ms() };
  }
}

function describe(paths: string[]): SandboxHostDescription {
  const permission = (process as { permission?: NodeJS.ProcessPermission }).permission;
  return {
    pid: process.pid,
    env: Object.keys(process.env),
    permissions: {
      enabled: permission !== undefined,
      // has('fs.read') without a path is not reliable on Node 20 (true with several allowed paths).
      fsRead: Object.fromEntries(paths.map((path) => [path, permission?.has('fs.read', path) ?? true])),
      fsWrite: permission?.has('fs.write') ?? true,
      childProcess: permission?.has('child') ?? true,
      worker: permission?.has('worker') ?? true,
    },
  };
}
