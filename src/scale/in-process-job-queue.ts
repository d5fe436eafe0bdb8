import { hostname } from 'node:os';
import { createFairSharePolicy, type FairShareState } from '../core/fair-share.js';
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

/** Slots a queue may share with other work (the server's limiter: chat completions take them too). */
export interface JobSlots {
  /** Resolves with the release once a slot is free; rejects at once when the limiter refuses (a 429). */
  acquire(request: { owner: string; signal?: AbortSignal }): Promise<() => void>;
}

interface Running {
  owner: string;
  controller: AbortController;
  done: Promise<void>;
}

/**
 * Jobs in this process's memory, as `deepsearch serve` runs them on one machine: a free slot
 * takes a job at once; otherwise it waits in the queue. Slots and queue places are shared between
 * owners by the server's fair-share rule (src/core/fair-share.ts: a freed slot goes to the
 * waiting owner holding the fewest; one owner holds at most `ownerShare` of the queue), on top of
 * `maxJobsPerOwner`. Nothing survives the process: close() gives back the ids of the jobs it ran
 * or held unfinished, for the caller to keep them resumable. With `slots`, jobs wait for and run
 * in those slots instead (the limits, the fair share and the 429s are then the slots' own).
 */
export function createInProcessJobQueue(
  options: JobQueueLimits & {
    /** Share (0–1] of the queue one owner may hold (default 1: no cap but maxJobsPerOwner). */
    ownerShare?: number;
    workerId?: string;
    now?: () => number;
    slots?: JobSlots;
  },
): JobQueue {
  if (options.slots) return createSlotJobQueue(options.slots, options.workerId);
  const workerId = options.workerId ?? `${hostname()}:${process.pid}:in-process`;
  const now = options.now ?? (() => performance.now());
  const waiting: JobRequest[] = [];
  const running = new Map<string, Running>();
  const recentMs: number[] = [];
  let work: { handler: JobHandler; concurrency: number } | undefined;
  let closing = false;

  const count = <T extends { owner: string }>(jobs: Iterable<T>, owner: string) =>
    [...jobs].filter((job) => job.owner === owner).length;
  const state: FairShareState = {
    get running() {
      return running.size;
    },
    get queued() {
      return waiting.length;
    },
    runningOf: (owner) => count(running.values(), owner),
    queuedOf: (owner) => count(waiting, owner),
  };
  // No worker yet: no slot, every job waits.
  const policy = () =>
    createFairSharePolicy({
      maxConcurrent: work && !closing ? work.concurrency : 0,
      maxQueue: options.maxQueue,
      ownerShare: options.ownerShare ?? 1,
    });

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
      const next = policy().pickNext(
        waiting.map((request) => request.owner),
        state,
      );
      start(waiting.splice(next, 1)[0]!);
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
      const { owner } = request;
      if (perOwner !== undefined && state.runningOf(owner) + state.queuedOf(owner) >= perOwner)
        throw refuse('owner_busy', perOwner);
      const fair = policy();
      const admission = fair.admit(owner, state);
      if (admission === 'run') {
        start(request);
        return { status: 'running' };
      }
      if (admission === 'owner_busy') throw refuse('owner_busy', fair.ownerQueue);
      if (admission === 'server_busy') throw refuse('server_busy', options.maxQueue);
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
    has: async (id) => running.has(id) || waiting.some((request) => request.id === id),
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

interface SlotJob {
  controller: AbortController;
  started: boolean;
  done: Promise<void>;
}

/**
 * Jobs in this process run in slots shared with other work: `deepsearch serve` on one machine,
 * whose async runs take the same slots as its chat completions (and show in /ready's counts).
 */
function createSlotJobQueue(slots: JobSlots, workerId = `${hostname()}:${process.pid}:in-process`): JobQueue {
  const jobs = new Map<string, SlotJob>();
  let work: { handler: JobHandler } | undefined;
  let closing = false;
  const stop = (job: SlotJob, reason: JobStoppedError) => job.controller.abort(reason);
  return {
    async enqueue(request) {
      if (jobs.has(request.id)) throw jobExists(request.id);
      const controller = new AbortController();
      const slot = slots.acquire({ owner: request.owner, signal: controller.signal });
      const status = await grantedAtOnce(slot);
      const job: SlotJob = { controller, started: false, done: Promise.resolve() };
      jobs.set(request.id, job);
      job.done = slot
        .then(
          async (release) => {
            job.started = true;
            try {
              await work?.handler({ ...request, signal: controller.signal, workerId });
            } catch {
              // the handler records its own failure; the queue only frees the slot
            } finally {
              release();
            }
          },
          () => undefined, // left the line: cancelled, or the queue closed
        )
        .finally(() => jobs.delete(request.id));
      return { status };
    },
    async cancel(id) {
      const job = jobs.get(id);
      if (!job) return 'not_found';
      stop(job, new JobStoppedError('job_cancelled'));
      return job.started ? 'signalled' : 'removed';
    },
    has: async (id) => jobs.has(id),
    async work(settings) {
      work = settings;
    },
    async counts() {
      const running = [...jobs.values()].filter((job) => job.started).length;
      return { queued: jobs.size - running, running };
    },
    async close(settings = {}) {
      if (closing) return { handedBack: [] };
      closing = true;
      const unstarted = [...jobs].filter(([, job]) => !job.started);
      for (const [, job] of unstarted) stop(job, new JobStoppedError('job_handed_back'));
      await Promise.race([
        Promise.all([...jobs.values()].map((job) => job.done)),
        new Promise((resolve) => setTimeout(resolve, settings.graceMs ?? 0).unref()),
      ]);
      const unfinished = [...jobs];
      for (const [, job] of unfinished) stop(job, new JobStoppedError('job_handed_back'));
      await Promise.all(unfinished.map(([, job]) => job.done));
      return { handedBack: [...new Set([...unfinished, ...unstarted].map(([id]) => id))] };
    },
  };
}

/**
 * Whether the slot was granted at once or the job waits; a refusal rejects here (429). An already
 * settled promise wins a race against a later-settled one, so this tells them apart without waiting.
 */
async function grantedAtOnce(slot: Promise<() => void>): Promise<'queued' | 'running'> {
  const waiting = Symbol('waiting');
  const first = await Promise.race([slot, Promise.resolve(waiting)]);
  return first === waiting ? 'queued' : 'running';
}
