import { createChildPool } from '../platform/child-process/child-pool.js';
import type { QuickJsLimits } from './run-in-quickjs.js';
import { type HostAnswer, type RequestOptions, startSandboxHost } from './sandbox-host-process.js';
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
  const pool = createChildPool({
    size: options.size,
    start: (signal) =>
      startSandboxHost({ limits: options.limits, signal, startTimeoutMs: options.startTimeoutMs }),
  });
  return {
    async request(message, requestOptions) {
      const outcome = await pool.withChild(requestOptions.signal, async (host) => {
        const answer = await host.request(message, requestOptions);
        if (answer.ok || answer.reason !== 'exited') return answer;
        return { ...answer, detail: `stopped during the run (${answer.detail})` };
      });
      if (outcome.ok) return outcome.value;
      if (outcome.reason !== 'deadline') return outcome;
      const seconds = options.startTimeoutMs / 1000;
      return { ok: false, reason: 'exited', detail: `did not start within ${seconds} s` };
    },
    close: () => pool.close(),
  };
}
