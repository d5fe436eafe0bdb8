import {
  type ChildAnswer,
  type ChildFailure,
  type IpcChild,
  spawnIpcChild,
} from '../platform/child-process/ipc-child.js';
import type { QuickJsLimits } from './run-in-quickjs.js';
import { sandboxHostCommand } from './sandbox-host-command.js';
import { type HostReply, type HostRequest, hostErrorPrefix } from './sandbox-host-protocol.js';

/** Why a request got no reply. */
export type HostFailure = ChildFailure;

export type HostAnswer = ChildAnswer<HostReply>;

export type { ChildRequestOptions as RequestOptions } from '../platform/child-process/ipc-child.js';

/** One sandbox host process, answering one request at a time. */
export type SandboxHost = IpcChild<HostRequest, HostReply>;

export interface StartSandboxHostOptions {
  limits: QuickJsLimits;
  signal?: AbortSignal;
  /** Time for the process to start and load the engine. */
  startTimeoutMs: number;
}

export type StartedHost = { ok: true; child: SandboxHost } | ({ ok: false } & HostFailure);

/**
 * Starts a sandbox host (sandbox-host-main.ts) with an empty environment, Node's permission model
 * and an IPC channel, and waits until it has loaded the engine. An idle host does not keep this
 * process alive; it is killed when this process exits.
 */
export async function startSandboxHost(options: StartSandboxHostOptions): Promise<StartedHost> {
  if (options.signal?.aborted) return { ok: false, reason: 'aborted' };
  const command = await sandboxHostCommand();
  if (options.signal?.aborted) return { ok: false, reason: 'aborted' };
  const host = spawnIpcChild<HostRequest, HostReply>({
    command,
    serialization: 'json',
    errorPrefix: hostErrorPrefix,
  });
  const started = await host.request(
    { type: 'init', limits: options.limits },
    { signal: options.signal, deadlineMs: options.startTimeoutMs },
  );
  if (started.ok) return { ok: true, child: host };
  host.kill();
  if (started.reason !== 'exited') return started;
  return { ok: false, reason: 'exited', detail: `could not start (${started.detail})` };
}
