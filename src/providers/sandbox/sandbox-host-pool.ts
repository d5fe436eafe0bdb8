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
  const free = hosts.map((_, slot) => slot).reverse();
  const waiting: Array<(slot: number) => void> = [];

  const acquire = (signal: AbortSignal | undefined): Promise<number | undefined> => {
    const slot = free.pop();
    if (slot !== undefined) return Promise.resolve(slot);
    return new Promise((resolve) => {
      const take = (given: number) => {
        signal?.removeEventListener('abort', onAbort);
        resolve(given);
      };
      const onAbort = () => {
        waiting.splice(waiting.indexOf(take), 1);
        resolve(undefined);
      };
      waiting.push(take);
      signal?.addEventListener('abort', onAbort, { once: true });
    });
  };
  const release = (slot: number) => {
    const next = waiting.shift();
    if (next) next(slot);
    else free.push(slot);
  };
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

  return {
    async request(message, requestOptions) {
      const slot = await acquire(requestOptions.signal);
      if (slot === undefined) return { ok: false, reason: 'aborted' };
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
        release(slot);
      }
    },
    close() {
      for (const host of hosts) host?.kill();
    },
  };
}
