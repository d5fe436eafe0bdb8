export interface HealthWatch {
  /** Answers received so far. */
  readonly answered: number;
  /** The slowest answer so far, in ms (an unanswered request counts its time so far). */
  readonly slowestMs: number;
  stop(): Promise<void>;
}

/**
 * Asks GET /health one request after another (every `intervalMs`) until stopped, timing each: what
 * a load balancer sees while the server works. A request that fails counts as slow as it took.
 */
export function watchHealth(url: string, intervalMs = 200): HealthWatch {
  let answered = 0;
  let slowestMs = 0;
  let stopped = false;
  const loop = (async () => {
    while (!stopped) {
      const started = performance.now();
      try {
        const response = await fetch(`${url}/health`, { signal: AbortSignal.timeout(10_000) });
        await response.arrayBuffer();
        if (response.ok) answered++;
      } catch {
        // Counted by its time: a refused or hung request is as bad as a slow one.
      }
      slowestMs = Math.max(slowestMs, performance.now() - started);
      await new Promise((resolve) => setTimeout(resolve, intervalMs));
    }
  })();
  return {
    get answered() {
      return answered;
    },
    get slowestMs() {
      return slowestMs;
    },
    async stop() {
      stopped = true;
      await loop;
    },
  };
}
