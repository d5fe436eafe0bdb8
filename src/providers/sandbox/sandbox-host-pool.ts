import { createSemaphore } from '../../core/semaphore.js';
import { isAbortError } from '../../errors/index.js';
import type { QuickJsLimits } from './run-in-quickjs.js';
import {
  type HostAnswer,
  type RequestOptions,
  type SandboxHost,
  startSandboxHost,
} from './sandbox-host-process.js';
import type { HostRequestBody } from './sandbox-host-protocol.js';

export interface SandboxHostPoolOptions {
  /** Hosts running code at once; more requests wait in order. */
  size: number;
  limits: QuickJsLimits;
  startTimeoutMs: number;
}

export interface SandboxHostPool {
  /**
   * Sends a request to a free host, started on first use and again after it died. Waits for a
   * free host first; a request aborted while waiting never reaches one.
   */
  request(message: HostRequestBody, options: RequestOptions): Promise<HostAnswer>;
  /** Kills every host; a later request starts new ones. */
  close(): void;
}

export function createSandboxHostPool(options: SandboxHostPoolOptions): SandboxHostPool {
  const hosts: Array<SandboxHost | undefined> = Array.from({ length: options.size }, () => undefined);
  // The slots not in use: the limit lets at most `size` requests through, so one is always free.
  const free = hosts.map((_, slot) => slot).reverse();
  const limit = createSemaphore({ max: options.size });
  const hostFor = async (slot: number, signal: AbortSignal | undefined) => {
    const current = hosts[slot];
    if (current?.alive) return { ok: true as const, host: current };
    const started = await startSandboxHost({
      limits: options.limits,
      signal,
      startTimeoutMs: options.startTimeoutMs,
    });
    if (started.ok) hosts[slot] = started.host;
    return started;
  };
  const send = async (message: HostRequestBody, requestOptions: RequestOptions): Promise<HostAnswer> => {
    const slot = free.pop()!;
    try {
      const started = await hostFor(slot, requestOptions.signal);
      if (!started.ok) {
        if (started.reason !== 'deadline') return started;
        const seconds = options.startTimeoutMs / 1000;
        return { ok: false, reason: 'exited', detail: `did not start within ${seconds} s` };
      }
      const answer = await started.host.request(message, requestOptions);
      if (answer.ok || answer.reason !== 'exited') return answer;
      return { ...answer, detail: `stopped during the run (${answer.detail})` };
    } finally {
      free.push(slot);
    }
  };

  return {
    async request(message, requestOptions) {
      try {
        return await limit.run(() => send(message, requestOptions), requestOptions.signal);
      } catch (error) {
        // Aborted while waiting for a free host: it never reached one.
        if (isAbortError(error)) return { ok: false, reason: 'aborted' };
        throw error;
      }
    },
    close() {
      for (const host of hosts) host?.kill();
    },
  };
}
