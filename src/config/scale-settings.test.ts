import { describe, expect, it } from 'vitest';
import { ConfigError, createRedactor } from '../core/errors/index.js';
import { configSecrets } from './config-secrets.js';
import { loadConfig } from './load-config.js';
import { redactConfig } from './redact-config.js';

const redisUrl = 'redis://:r3dis-pass%21@127.0.0.1:6379';
const databaseUrl = 'postgres://deepsearch:pg-secret-9@db.internal:5432/deepsearch';

describe('queue mode settings', () => {
  it('are off by default: no Redis, no Postgres, the limits at their defaults', () => {
    expect(loadConfig({}).scale).toEqual({ maxQueue: 256, lockSeconds: 30, reconcileSeconds: 30 });
  });

  it('read both URLs and the limits from the environment', () => {
    const config = loadConfig({
      env: {
        DEEPSEARCH_REDIS_URL: redisUrl,
        DEEPSEARCH_DATABASE_URL: databaseUrl,
        DEEPSEARCH_LLM_CONCURRENCY: '12',
        DEEPSEARCH_MAX_JOBS_PER_KEY: '4',
        DEEPSEARCH_QUEUE_MAX: '1000',
        DEEPSEARCH_JOB_LOCK_SECONDS: '45',
        DEEPSEARCH_RECONCILE_SECONDS: '5',
      },
    });
    expect(config.scale).toEqual({
      redisUrl,
      databaseUrl,
      llmConcurrency: 12,
      maxJobsPerOwner: 4,
      maxQueue: 1000,
      lockSeconds: 45,
      reconcileSeconds: 5,
    });
  });

  it('refuse one URL without the other, naming the one missing', () => {
    const onlyRedis = () => loadConfig({ env: { DEEPSEARCH_REDIS_URL: redisUrl } });
    expect(onlyRedis).toThrow(ConfigError);
    expect(onlyRedis).toThrow(
      /DEEPSEARCH_DATABASE_URL is not set: .*set DEEPSEARCH_DATABASE_URL, or unset DEEPSEARCH_REDIS_URL/,
    );
    const onlyDatabase = () =>
      loadConfig({ file: { scale: { databaseUrl } }, fileName: 'deepsearch.config.json' });
    expect(onlyDatabase).toThrow(/DEEPSEARCH_REDIS_URL is not set/);
  });

  it('refuse a URL of the wrong kind, saying which variable set it', () => {
    const wrong = () =>
      loadConfig({ env: { DEEPSEARCH_REDIS_URL: databaseUrl, DEEPSEARCH_DATABASE_URL: databaseUrl } });
    expect(wrong).toThrow(
      /scale.redisUrl: not a redis:\/\/ or rediss:\/\/ URL .*\(set by DEEPSEARCH_REDIS_URL\)/,
    );
    expect(wrong).not.toThrow(/pg-secret-9/);
  });

  it('treat the passwords in both URLs as secrets: redacted in output, masked in --debug config', () => {
    const config = loadConfig({
      env: { DEEPSEARCH_REDIS_URL: redisUrl, DEEPSEARCH_DATABASE_URL: databaseUrl },
    });
    const redact = createRedactor(configSecrets(config));
    const message = redact(
      `connect failed: password authentication failed (pg-secret-9) and r3dis-pass! refused`,
    );
    expect(message).not.toContain('pg-secret-9');
    expect(message).not.toContain('r3dis-pass!');
    const printed = JSON.stringify(redactConfig(config));
    expect(printed).toContain('db.internal:5432/deepsearch');
    expect(printed).not.toContain('pg-secret-9');
    expect(printed).not.toContain('r3dis-pass');
  });
});

describe('operating settings of serve and worker', () => {
  it('log as text by default, as JSON lines with DEEPSEARCH_LOG_FORMAT=json; metrics on a port only when asked', () => {
    expect(loadConfig({}).server).toMatchObject({ logFormat: 'text' });
    expect(loadConfig({}).server.metricsPort).toBeUndefined();
    const config = loadConfig({ env: { DEEPSEARCH_LOG_FORMAT: 'json', DEEPSEARCH_METRICS_PORT: '9464' } });
    expect(config.server).toMatchObject({ logFormat: 'json', metricsPort: 9464 });
    expect(() => loadConfig({ env: { DEEPSEARCH_LOG_FORMAT: 'yaml' } })).toThrow(/DEEPSEARCH_LOG_FORMAT/);
  });
});
