import type { SettingSource } from './setting-sources.js';

/** Queue mode (docs/scale-out.md): the shared Redis and Postgres, and the cluster's limits. */
export const scaleSettingSources: readonly SettingSource[] = [
  {
    path: 'scale.redisUrl',
    env: 'DEEPSEARCH_REDIS_URL',
    type: 'string',
    secret: true,
    description:
      'queue mode: Redis for jobs and live events (with DEEPSEARCH_DATABASE_URL), e.g. redis://127.0.0.1:6379',
  },
  {
    path: 'scale.databaseUrl',
    env: 'DEEPSEARCH_DATABASE_URL',
    type: 'string',
    secret: true,
    description: 'queue mode: Postgres for runs, events and trust profiles (with DEEPSEARCH_REDIS_URL)',
  },
  {
    path: 'scale.llmConcurrency',
    env: 'DEEPSEARCH_LLM_CONCURRENCY',
    type: 'integer',
    description: 'queue mode: LLM calls at once across all workers (default: no cap)',
  },
  {
    path: 'scale.maxJobsPerOwner',
    env: 'DEEPSEARCH_MAX_JOBS_PER_KEY',
    type: 'integer',
    description:
      'queue mode: runs of one API key queued or running at once, beyond: 429 owner_busy (default: no limit)',
  },
  {
    path: 'scale.maxQueue',
    env: 'DEEPSEARCH_QUEUE_MAX',
    type: 'integer',
    description: 'queue mode: runs waiting for a worker, beyond: 429 server_busy (default 256)',
  },
  {
    path: 'scale.lockSeconds',
    env: 'DEEPSEARCH_JOB_LOCK_SECONDS',
    type: 'number',
    description: 'queue mode: a worker silent this long loses its runs to another worker (default 30)',
  },
];
