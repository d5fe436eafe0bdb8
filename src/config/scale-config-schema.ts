import * as z from 'zod';
import { setting } from './setting.js';

const urlOf = (schemes: readonly string[], example: string) =>
  z.string().refine(
    (value) => {
      try {
        return schemes.includes(new URL(value).protocol);
      } catch {
        return false;
      }
    },
    {
      message: `not a ${schemes.map((scheme) => scheme.replace(':', '://')).join(' or ')} URL (e.g. ${example})`,
    },
  );

/**
 * Queue mode (docs/scale-out.md): jobs in Redis (BullMQ), runs and events in Postgres, shared by
 * any number of API nodes and workers. Neither URL set: the one-machine default (SQLite, jobs in
 * the server's process). One without the other is refused at start, naming the missing one.
 */
export const scaleConfigSchema = z
  .object({
    redisUrl: setting(urlOf(['redis:', 'rediss:'], 'redis://127.0.0.1:6379').optional(), {
      env: 'DEEPSEARCH_REDIS_URL',
      secret: true,
      description:
        'queue mode: Redis for jobs and live events (with DEEPSEARCH_DATABASE_URL), e.g. redis://127.0.0.1:6379',
    }),
    databaseUrl: setting(
      urlOf(['postgres:', 'postgresql:'], 'postgres://deepsearch@127.0.0.1/deepsearch').optional(),
      {
        env: 'DEEPSEARCH_DATABASE_URL',
        secret: true,
        description: 'queue mode: Postgres for runs, events and trust profiles (with DEEPSEARCH_REDIS_URL)',
      },
    ),
    // A shared model server.
    llmConcurrency: setting(z.number().int().min(1).optional(), {
      env: 'DEEPSEARCH_LLM_CONCURRENCY',
      description: 'queue mode: LLM calls at once across all workers (default: no cap)',
    }),
    maxJobsPerOwner: setting(z.number().int().min(1).optional(), {
      env: 'DEEPSEARCH_MAX_JOBS_PER_KEY',
      description:
        'queue mode: runs of one API key queued or running at once, beyond: 429 owner_busy (default: no limit)',
    }),
    maxQueue: setting(z.number().int().min(0).default(256), {
      env: 'DEEPSEARCH_QUEUE_MAX',
      description: 'queue mode: runs waiting for a worker, beyond: 429 server_busy',
    }),
    // Dead, or stuck.
    lockSeconds: setting(z.number().min(1).max(3600).default(30), {
      env: 'DEEPSEARCH_JOB_LOCK_SECONDS',
      description: 'queue mode: a worker silent this long loses its runs to another worker',
    }),
    reconcileSeconds: setting(z.number().min(1).max(3600).default(30), {
      env: 'DEEPSEARCH_RECONCILE_SECONDS',
      description:
        'queue mode: how often each worker looks for runs Postgres says are running but the queue lost (a Redis restart); two looks in a row put one back',
    }),
  })
  .strict()
  .superRefine((scale, context) => {
    const [set, missing] = scale.redisUrl
      ? ['DEEPSEARCH_REDIS_URL', 'DEEPSEARCH_DATABASE_URL']
      : ['DEEPSEARCH_DATABASE_URL', 'DEEPSEARCH_REDIS_URL'];
    if (Boolean(scale.redisUrl) === Boolean(scale.databaseUrl)) return;
    context.addIssue({
      code: 'custom',
      path: [scale.redisUrl ? 'databaseUrl' : 'redisUrl'],
      message:
        `${missing} is not set: queue mode needs both DEEPSEARCH_REDIS_URL (jobs) and DEEPSEARCH_DATABASE_URL (runs); ` +
        `set ${missing}, or unset ${set} to run jobs in this process`,
    });
  });
