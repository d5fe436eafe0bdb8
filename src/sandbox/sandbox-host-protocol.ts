import type { GuestResult } from './read-guest-outcome.js';
import type { QuickJsLimits } from './run-in-quickjs.js';

/**
 * The messages between the agent's process and the sandbox host (sandbox-host-main.ts) over the
 * IPC channel. Every request carries an id its reply repeats; the host answers one at a time.
 */
export type HostRequest =
  /** First message: the limits of every run; the host loads the engine, then says `ready`. */
  | { type: 'init'; id: number; limits: QuickJsLimits }
  | { type: 'run'; id: number; code: string; inputJson: string }
  /**
   * What the host process can see and do, with whether it may read each of `paths`: for tests
   * and diagnostics, never guest-visible.
   */
  | { type: 'describe'; id: number; paths: string[] };

/** A request before the host process gives it its id. */
export type HostRequestBody = {
  [Type in HostRequest['type']]: Omit<Extract<HostRequest, { type: Type }>, 'id'>;
}[HostRequest['type']];

export interface SandboxHostDescription {
  pid: number;
  /** Names of the host's environment variables (the parent gives it an empty environment). */
  env: string[];
  /** Whether Node's permission model restricts the host, and what it still allows. */
  permissions: {
    enabled: boolean;
    /** Each path asked about: whether the host may read it. */
    fsRead: Record<string, boolean>;
    fsWrite: boolean;
    childProcess: boolean;
    worker: boolean;
  };
}

export type HostReply =
  | { type: 'ready'; id: number }
  | { type: 'result'; id: number; result: GuestResult; ms: number }
  | { type: 'description'; id: number; description: SandboxHostDescription };

/** The host's one line on stderr before it exits with an error, for the parent to report. */
export const hostErrorPrefix = 'sandbox host: ';
