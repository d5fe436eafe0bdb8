import { hostname } from 'node:os';
import {
  busyMessage,
  type JobHandler,
  type JobQueue,
  JobQueueBusyError,
  type JobQueueLimits,
  type JobRequest,
  JobStoppedError,
  jobExists,
  retryAfterSeconds,
} from './job-queue.js';

interface Running {
  owner: string;
  controller: AbortController;
  done: Promise<void>;
}

/**
 * Jobs in this process's memory, as `deepsearch serve` runs them on one machine: a free slot
 * takes a job at once; otherwise it waits in the queue. A freed slot goes to the waiting job
 * whose owner holds the fewest slots (oldest first among equals), so busy keys converge to equal
 * shares, the rule of the server's limiter. Nothing survives the process: close() gives back the
 * ids of the jobs it ran or held unfinished, for the caller to keep them resumable.
 */
export function createInProcessJobQueue(
  options: JobQueueLimits & { workerId?: string; now?: () => number },
): JobQueue {
  const workerId = options.workerId ?? `${hostname()}:${process.pid}:in-process`;
  const now = options.now ?? (() => performance.now());
  const waiting: JobRequest[] = [];
  const running = new Map<string, Running>();
  const recentMs: number[] = [];
  let work: { handler: JobHandler; concurrency: number } | undefined;
  let closing = false;

  const runningOf = (owner: string) => [...running.values()].filter((job) => job.owner === owner).length;
  const unfinishedOf = (owner: string) =>
    runningOf(owner) + waiting.filter((request) => request.owner === owner).length;

  const start = (request: JobRequest) => {
    const controller = new AbortController();
    const started = now();
    const entry: Running = { owner: request.owner, controller, done: Promise.resolve() };
    running.set(request.id, entry);
    entry.done = work!
      .handler({ ...request, signal: controller.signal, workerId })
      .catch(() => undefined) // the handler records its own failure; the queue only frees the slot
      .finally(() => {
        running.delete(request.id);
        recentMs.push(now() - started);
        if (recentMs.length > 20) recentMs.shift();
        startWaiting();
      });
  };
  const startWaiting = () => {
    while (work && !closing && waiting.length > 0 && running.size < work.concurrency) {
      let best = 0;
      for (let index = 1; index < waiting.length; index++)
        if (runningOf(waiting[index]!.owner) < runningOf(waiting[best]!.owner)) best = index;
      start(waiting.splice(best, 1)[0]!);
    }
  };
  const refuse = (code: 'server_busy' | 'owner_busy', limit: number) =>
    new JobQueueBusyError({
      code,
      message: busyMessage(code, { queued: waiting.length, limit }),
      retryAfterSeconds: retryAfterSeconds(recentMs),
    });

  return {
    async enqueue(request) {
      if (running.has(request.id) || waiting.some((queued) => queued.id === request.id))
        throw jobExists(request.id);
      const perOwner = options.maxJobsPerOwner;
      if (perOwner !== undefined && unfinishedOf(request.owner) >= perOwner)
        throw refuse('owner_busy', perOwner);
      if (work && !closing && waiting.length === 0 && running.size < work.concurrency) {
        start(request);
        return { status: 'running' };
      }
      if (waiting.length >= options.maxQueue) throw refuse('server_busy', options.maxQueue);
      waiting.push({ ...request });
      return { status: 'queued' };
    },
    async cancel(id) {
      const index = waiting.findIndex((request) => request.id === id);
      if (index >= 0) {
        waiting.splice(index, 1);
        return 'removed';
      }
      const job = running.get(id);
      if (!job) return 'not_found';
      job.controller.abort(new JobStoppedError('job_cancelled'));
      return 'signalled';
    },
    async work(settings) {
      work = settings;
      startWaiting();
    },
    async counts() {
      return { queued: waiting.length, running: running.size };
    },
    async close(settings = {}) {
      closing = true;
      const unstarted = waiting.splice(0).map((request) => request.id);
      await Promise.race([
        Promise.all([...running.values()].map((job) => job.done)),
        new Promise((resolve) => setTimeout(resolve, settings.graceMs ?? 0).unref()),
      ]);
      const unfinished = [...running.entries()];
      for (const [, job] of unfinished) job.controller.abort(new JobStoppedError('job_handed_back'));
      await Promise.all(unfinished.map(([, job]) => job.done));
      return { handedBack: [...unfinished.map(([id]) => id), ...unstarted] };
    },
  };
}
