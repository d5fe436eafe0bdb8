import type { Redis } from 'ioredis';
import { maskProxyUrl } from '../../config/proxy-settings.js';
import { ConfigError } from '../../core/errors/index.js';
import { importQueuePackage } from '../import-queue-package.js';

/**
 * A connection to the deployment's Redis (DEEPSEARCH_REDIS_URL), made when queue mode starts:
 * ioredis is imported then, never on a machine that does not configure Redis. It reconnects by
 * itself after a restart; only the first connection must succeed. A worker's connection retries
 * its commands until Redis is back (what BullMQ's workers require: jobs wait, nothing fails); one
 * that answers a client (`failFast`) gives up after one retry, so a request fails with an error
 * instead of hanging while Redis is away.
 */
export async function openRedis(
  url: string,
  options: {
    name: string;
    failFast?: boolean;
    /** Commands issued in one tick go out in one write (many runs appending at once). */
    autoPipelining?: boolean;
  },
): Promise<Redis> {
  const Client = await importQueuePackage('ioredis', async () => (await import('ioredis')).Redis);
  const client = new Client(url, {
    lazyConnect: true,
    maxRetriesPerRequest: options.failFast ? 1 : null,
    connectTimeout: 5000,
    connectionName: `deepsearch:${options.name}`,
    enableAutoPipelining: options.autoPipelining ?? false,
  });
  // Without a listener an emitted error would end the process; commands report their own.
  client.on('error', () => undefined);
  try {
    await client.connect();
  } catch (cause) {
    client.disconnect();
    throw new ConfigError(
      `cannot reach Redis at ${maskProxyUrl(url)} (${(cause as Error).message}): check that it runs and DEEPSEARCH_REDIS_URL is right`,
      { code: 'config_redis_unavailable', cause },
    );
  }
  return client;
}

/**
 * Refuses a Redis that may evict keys under memory pressure: a queue whose jobs or locks vanish
 * silently loses runs. Read from INFO, which managed services allow where CONFIG is disabled.
 */
export async function checkNoEviction(client: Redis, url: string): Promise<void> {
  const info = await client.info('memory');
  const policy = /^maxmemory_policy:(\S+)/m.exec(info)?.[1];
  if (policy === 'noeviction') return;
  throw new ConfigError(
    `Redis at ${maskProxyUrl(url)} runs with maxmemory-policy ${policy ?? 'unknown'}: queue mode needs noeviction ` +
      '(jobs and their locks must never be evicted); set "maxmemory-policy noeviction" in its configuration',
    { code: 'config_redis_eviction' },
  );
}
