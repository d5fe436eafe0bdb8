import { Counter, Gauge, Histogram, Registry } from 'prom-client';

const latencyBuckets = [0.05, 0.1, 0.25, 0.5, 1, 2, 5, 10, 30, 60];
const runBuckets = [1, 5, 10, 30, 60, 120, 300, 600, 1800, 3600];

/**
 * The Prometheus metrics of one process (`serve` or `worker`), in a registry of its own (nothing
 * global: a library user's registry is not touched). What feeds them: run-metrics.ts (runs and
 * their events), the job events of a worker, the server's slots and streams, the queue's counts.
 */
export function createProcessMetrics() {
  const registry = new Registry();
  const registers = [registry];
  return {
    registry,
    runsStarted: new Counter({
      name: 'deepsearch_runs_started_total',
      help: 'Runs started in this process, by mode (search, research, direct, resume)',
      labelNames: ['mode'],
      registers,
    }),
    runsFinished: new Counter({
      name: 'deepsearch_runs_finished_total',
      help: 'Runs ended in this process, by mode and outcome (completed, failed, cancelled)',
      labelNames: ['mode', 'outcome'],
      registers,
    }),
    runDuration: new Histogram({
      name: 'deepsearch_run_duration_seconds',
      help: 'How long runs took, by mode and outcome',
      labelNames: ['mode', 'outcome'],
      buckets: runBuckets,
      registers,
    }),
    llmCalls: new Counter({
      name: 'deepsearch_llm_calls_total',
      help: 'LLM requests, by model, role and outcome (ok, parse-failure, error)',
      labelNames: ['model', 'role', 'outcome'],
      registers,
    }),
    llmTokens: new Counter({
      name: 'deepsearch_llm_tokens_total',
      help: 'LLM tokens, by model, role and direction (input, output)',
      labelNames: ['model', 'role', 'direction'],
      registers,
    }),
    llmLatency: new Histogram({
      name: 'deepsearch_llm_call_duration_seconds',
      help: 'Time of one LLM request, by model and role',
      labelNames: ['model', 'role'],
      buckets: latencyBuckets,
      registers,
    }),
    searchLatency: new Histogram({
      name: 'deepsearch_search_duration_seconds',
      help: "Time of one search step (its queries at once), from the agent's events",
      buckets: latencyBuckets,
      registers,
    }),
    readLatency: new Histogram({
      name: 'deepsearch_read_duration_seconds',
      help: 'Time from a read step starting to each page of it being read',
      buckets: latencyBuckets,
      registers,
    }),
    readFailures: new Counter({
      name: 'deepsearch_read_failures_total',
      help: 'Pages that could not be read, by reason (timeout, http_4xx, http_5xx, blocked, paywalled, other)',
      labelNames: ['reason'],
      registers,
    }),
    takeovers: new Counter({
      name: 'deepsearch_job_takeovers_total',
      help: 'Queue mode: jobs this worker went on with from an earlier attempt (a dead worker, a hand-back, a resume)',
      registers,
    }),
    jobs: new Counter({
      name: 'deepsearch_jobs_total',
      help: 'Queue mode: what this worker did with jobs (taken, resumed, finished, failed, cancelled, handed-back, lost)',
      labelNames: ['event'],
      registers,
    }),
    sseStreams: new Gauge({
      name: 'deepsearch_sse_streams_open',
      help: 'Event streams (SSE) open now on this server',
      registers,
    }),
  };
}

export type ProcessMetrics = ReturnType<typeof createProcessMetrics>;

/** The server's slots, read when scraped. */
export function trackSlots(metrics: ProcessMetrics, limiter: { running: number; queued: number }): void {
  new Gauge({
    name: 'deepsearch_slots_in_use',
    help: 'Runs holding one of the server slots (--max-concurrent)',
    registers: [metrics.registry],
    collect() {
      this.set(limiter.running);
    },
  });
  new Gauge({
    name: 'deepsearch_slots_waiting',
    help: 'Requests waiting for a server slot (--max-queue)',
    registers: [metrics.registry],
    collect() {
      this.set(limiter.queued);
    },
  });
}

/**
 * Queue mode: the deployment's queue, read from Redis when scraped (the same numbers on every
 * node: take the max, not the sum). A Redis away leaves the last values.
 */
export function trackQueue(
  metrics: ProcessMetrics,
  queue: { counts(): Promise<{ queued: number; running: number }> },
): void {
  new Gauge({
    name: 'deepsearch_queue_jobs',
    help: "Queue mode: the deployment's jobs by state (waiting, active), as Redis says",
    labelNames: ['state'],
    registers: [metrics.registry],
    async collect() {
      const counts = await queue.counts().catch(() => undefined);
      if (!counts) return;
      this.set({ state: 'waiting' }, counts.queued);
      this.set({ state: 'active' }, counts.running);
    },
  });
}
