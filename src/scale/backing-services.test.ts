import { describe, expect, it } from 'vitest';
import { ConfigError, isServiceUnavailableError } from '../core/errors/index.js';
import { guardService, isConnectionFailure, postgresService, redisService } from './backing-services.js';

const refused = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:6379'), { code: 'ECONNREFUSED' });
const maxRetries = Object.assign(new Error('Reached the max retries per request limit (which is 1).'), {
  name: 'MaxRetriesPerRequestError',
});

describe('backing services', () => {
  it('names the service and its setting, with the credentials of its URL masked', () => {
    expect(redisService('redis://:hunter2secret@cache.internal:6380').label).toBe(
      'the run queue (Redis at redis://***:***@cache.internal:6380, set by DEEPSEARCH_REDIS_URL)',
    );
    expect(postgresService('postgres://app:hunter2secret@db:5432/deepsearch').label).toBe(
      'the run store (Postgres at postgres://***:***@db:5432/deepsearch, set by DEEPSEARCH_DATABASE_URL)',
    );
  });

  it('tells a connection failure from a refused command', () => {
    expect(isConnectionFailure(refused)).toBe(true);
    expect(isConnectionFailure(maxRetries)).toBe(true);
    expect(isConnectionFailure(new Error('Connection terminated unexpectedly'))).toBe(true);
    expect(isConnectionFailure(Object.assign(new Error('terminating connection'), { code: '57P01' }))).toBe(
      true,
    );
    expect(isConnectionFailure(new Error('wrapped', { cause: refused }))).toBe(true);
    expect(isConnectionFailure(Object.assign(new Error('duplicate key'), { code: '23505' }))).toBe(false);
    expect(isConnectionFailure(new Error('WRONGTYPE Operation against a key'))).toBe(false);
  });

  it('guards an object: a connection failure becomes a ServiceUnavailableError naming it; others pass', async () => {
    const down: string[] = [];
    const service = redisService('redis://127.0.0.1:6379');
    const target = {
      value: 3,
      enqueue: async () => Promise.reject(maxRetries),
      refuse: async () => Promise.reject(new Error('WRONGTYPE')),
      config: async () => Promise.reject(new ConfigError('bad')),
      plain: () => 'sync',
    };
    const guarded = guardService(target, service, (error) => down.push(error.message));
    const error = await guarded.enqueue().catch((caught: unknown) => caught);
    expect(isServiceUnavailableError(error)).toBe(true);
    expect(error).toMatchObject({
      code: 'service_unavailable',
      message:
        "the run queue (Redis at redis://127.0.0.1:6379, set by DEEPSEARCH_REDIS_URL) can't be reached",
      cause: maxRetries,
    });
    await expect(guarded.refuse()).rejects.toThrow('WRONGTYPE');
    await expect(guarded.config()).rejects.toMatchObject({ code: 'config_invalid' });
    expect(guarded.plain()).toBe('sync');
    expect(guarded.value).toBe(3);
    expect(down).toEqual([
      "the run queue (Redis at redis://127.0.0.1:6379, set by DEEPSEARCH_REDIS_URL) can't be reached",
    ]);
  });
});
