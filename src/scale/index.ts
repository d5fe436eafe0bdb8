// Queue mode's building blocks (README.md beside this file; docs/scale-out.md), for library users
// composing their own deployment; the CLI's serve and worker load the files they need directly.
export { type AsyncRunStore, toAsyncRunStore } from './async-run-store.js';
export { createInProcessJobQueue } from './in-process-job-queue.js';
export {
  type JobData,
  type JobHandler,
  type JobQueue,
  JobQueueBusyError,
  type JobQueueLimits,
  type JobRequest,
  JobStoppedError,
  type JobStopReason,
  jobStopReason,
  type RunningJob,
} from './job-queue.js';
export { createPostgresDatabase, type PostgresDatabase } from './postgres/postgres-database.js';
export { createPostgresRunStore } from './postgres/postgres-run-store.js';
export { createPostgresTrustStore } from './postgres/postgres-trust-store.js';
export { type BullmqJobQueueOptions, createBullmqJobQueue } from './redis/bullmq-job-queue.js';
export { checkNoEviction, openRedis } from './redis/open-redis.js';
export { createRedisRunEventLog } from './redis/redis-run-event-log.js';
export { createRedisSemaphore } from './redis/redis-semaphore.js';
export { createMemoryRunEventLog, type RunEventLog } from './run-event-log.js';
export { type TrustStore, toTrustStore } from './trust-store.js';
