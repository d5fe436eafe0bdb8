import type { RunsConfig, ScaleConfig } from '../config/config-schema.js';
import { type BackingService, ConfigError, ServiceUnavailableError } from '../core/errors/index.js';
import type { TaskLimit } from '../core/semaphore.js';
import type { TrustStore } from '../knowledge/trust-store.js';
import { asServiceFailure, guardService, postgresService, redisService } from './backing-services.js';
import { isInterrupted } from './job-queue.js';
import { createPostgresDatabase, type PostgresDatabase } from './postgres/postgres-database.js';
import { createPostgresRunStore } from './postgres/postgres-run-store.js';
import { createPostgresTrustStore } from './postgres/postgres-trust-store.js';
import { createBullmqJobQueue } from './redis/bullmq-job-queue.js';
import { openRedis } from './redis/open-redis.js';
import { createRedisRunEventLog } from './redis/redis-run-event-log.js';
import { createRedisSemaphore } from './redis/redis-semaphore.js';
import type { RunBackend } from './run-backend.js';
import { createServiceMonitor, type ServiceChange, type ServiceMonitor } from './service-monitor.js';

/** The shared pieces one process of a deployment works with (docs/scale-out.md). */
export interface QueueMode extends RunBackend {
  database: PostgresDatabase;
  /** Domain trust profiles in Postgres, for the process's runtime (closed with the database). */
  trust: TrustStore;
  /** The cap on LLM calls across every process (scale.llmConcurrency), when one is set. */
  llmLimit: TaskLimit | undefined;
  /** Redis and Postgres, probed: /ready asks it, changes are logged (onServiceChange). */
  services: ServiceMonitor;
  /** Stops taking jobs (handing running ones back after `graceMs`), then closes every connection. */
  close(options?: { graceMs?: number }): Promise<{ handedBack: string[] }>;
}

/** Whether the config sets queue mode (both URLs; one alone is refused by the config's schema). */
export function isQueueMode(
  scale: ScaleConfig,
): scale is ScaleConfig & { redisUrl: string; databaseUrl: string } {
  return Boolean(scale.redisUrl && scale.databaseUrl);
}

/**
 * Opens queue mode: Postgres first (its schema brought up to date), then Redis for the queue and
 * the live events. Either one that cannot be reached (or a Redis that may evict keys) is a
 * ConfigError at start, naming it; what was opened is closed again. Afterwards a call that cannot
 * reach one fails with a ServiceUnavailableError naming it (backing-services.ts), background
 * errors are named the same way, and the service monitor reports each service going down or up.
 */
export async function openQueueMode(options: {
  scale: ScaleConfig;
  retention: RunsConfig['retention'];
  /** Background errors (a dropped connection, a lock renewal), for the process's log. */
  onError: (error: Error) => void;
  /** A backing service went down or came back. */
  onServiceChange?: (change: ServiceChange) => void;
}): Promise<QueueMode> {
  const { scale } = options;
  if (!isQueueMode(scale))
    throw new ConfigError(
      'queue mode needs DEEPSEARCH_REDIS_URL (jobs) and DEEPSEARCH_DATABASE_URL (runs): set both',
      { code: 'config_scale_missing' },
    );
  const redisLabel = redisService(scale.redisUrl);
  const postgresLabel = postgresService(scale.databaseUrl);
  let services: ServiceMonitor | undefined;
  const markDown = (error: ServiceUnavailableError) => services?.markDown(error);
  // A background error that says a service is away marks it down (the change is reported once,
  // not each lock renewal's failure); any other is passed on.
  const onError = (service: BackingService) => (error: Error) => {
    const failure = asServiceFailure(error, service);
    if (ServiceUnavailableError.isInstance(failure) && services) markDown(failure);
    else options.onError(failure as Error);
  };
  const database = guardService(
    createPostgresDatabase({ url: scale.databaseUrl, onError: onError(postgresLabel) }),
    postgresLabel,
    markDown,
  );
  const opened: Array<() => Promise<unknown>> = [() => database.close()];
  try {
    await database.query('SELECT 1');
    const store = createPostgresRunStore({ database, retention: options.retention, pruneIntervalMs: 60_000 });
    const log = guardService(
      await createRedisRunEventLog({ url: scale.redisUrl, store }),
      redisLabel,
      markDown,
    );
    opened.push(() => log.close());
    const queue = guardService(
      await createBullmqJobQueue({
        url: scale.redisUrl,
        maxQueue: scale.maxQueue,
        maxJobsPerOwner: scale.maxJobsPerOwner,
        lockMs: scale.lockSeconds * 1000,
        onError: onError(redisLabel),
      }),
      redisLabel,
      markDown,
    );
    opened.push(() => queue.close());
    const probeRedis = await openRedis(scale.redisUrl, { name: 'probe', failFast: true });
    opened.push(async () => probeRedis.disconnect());
    services = createServiceMonitor({
      probes: [
        { service: redisLabel, probe: () => probeRedis.ping() },
        { service: postgresLabel, probe: () => database.query('SELECT 1') },
      ],
      onChange: (change) => options.onServiceChange?.(change),
    });
    const capRedis = scale.llmConcurrency ? await openRedis(scale.redisUrl, { name: 'llm-cap' }) : undefined;
    const llmLimit =
      capRedis &&
      createRedisSemaphore({ redis: capRedis, key: 'deepsearch:llm-calls', limit: scale.llmConcurrency! });
    return {
      database,
      store,
      log,
      queue,
      // A run whose job is gone from the queue is held by no worker, wherever its process was.
      isInterrupted: (run) => isInterrupted(queue, run),
      outlivesProcess: true,
      trust: createPostgresTrustStore({ database, url: scale.databaseUrl }),
      llmLimit,
      services,
      async close(closeOptions) {
        services?.stop();
        const closed = await queue.close(closeOptions);
        capRedis?.disconnect();
        probeRedis.disconnect();
        await log.close();
        await database.close();
        return closed;
      },
    };
  } catch (error) {
    services?.stop();
    for (const close of opened.reverse()) await close().catch(() => undefined);
    throw error;
  }
}
