import type { DeepSearchConfig } from '../../../config/config-schema.js';
import { maskProxyUrl } from '../../../config/proxy-settings.js';
import type { CheckResult } from './doctor-checks.js';

/**
 * Queue mode's two servers (docs/scale-out.md), when DEEPSEARCH_REDIS_URL and
 * DEEPSEARCH_DATABASE_URL are set: Redis reachable, its version, maxmemory-policy noeviction
 * (refused otherwise) and whether AOF keeps the queue across a restart; Postgres reachable, its
 * version, the schema brought up to date, and how many runs it keeps. None without queue mode.
 */
export async function checkQueueServers(config: DeepSearchConfig): Promise<CheckResult[]> {
  const { redisUrl, databaseUrl } = config.scale;
  if (!redisUrl || !databaseUrl) return [];
  return Promise.all([checkRedis(redisUrl), checkPostgres(databaseUrl)]);
}

async function checkRedis(url: string): Promise<CheckResult> {
  const { checkNoEviction, openRedis } = await import('../../../scale/redis/open-redis.js');
  const where = maskProxyUrl(url);
  try {
    const redis = await openRedis(url, { name: 'doctor', failFast: true });
    try {
      await checkNoEviction(redis, url);
      const info = await redis.info();
      const field = (name: string) => new RegExp(`^${name}:(\\S+)`, 'm').exec(info)?.[1];
      const aof = field('aof_enabled') === '1';
      return {
        name: 'redis',
        ok: true,
        detail: `${where}: Redis ${field('redis_version') ?? '?'}, maxmemory-policy noeviction, ${aof ? 'AOF on' : 'AOF off (queued jobs are lost if Redis restarts: set appendonly yes)'}`,
      };
    } finally {
      redis.disconnect();
    }
  } catch (error) {
    return {
      name: 'redis',
      ok: false,
      detail: (error as Error).message,
      fix: 'start Redis (with maxmemory-policy noeviction) and check DEEPSEARCH_REDIS_URL',
    };
  }
}

async function checkPostgres(url: string): Promise<CheckResult> {
  const { createPostgresDatabase } = await import('../../../scale/postgres/postgres-database.js');
  const database = createPostgresDatabase({ url });
  try {
    const { rows } = await database.query<{ version: string; runs: string }>(
      "SELECT current_setting('server_version') AS version, (SELECT count(*) FROM runs) AS runs",
    );
    return {
      name: 'postgres',
      ok: true,
      detail: `${maskProxyUrl(url)}: Postgres ${rows[0]?.version.split(' ')[0] ?? '?'}, schema up to date, ${rows[0]?.runs ?? 0} run(s) kept`,
    };
  } catch (error) {
    return {
      name: 'postgres',
      ok: false,
      detail: (error as Error).message,
      fix: 'start Postgres, create the database and check DEEPSEARCH_DATABASE_URL (its user must be able to create tables)',
    };
  } finally {
    await database.close();
  }
}
