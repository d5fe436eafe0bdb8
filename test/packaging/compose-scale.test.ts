import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { settingSources } from '../../src/config/setting-sources.js';

// Docker cannot run here: compose.scale.yaml is read as Compose reads it (YAML, merge keys).
const compose = parse(
  readFileSync(fileURLToPath(new URL('../../compose.scale.yaml', import.meta.url)), 'utf8'),
  {
    merge: true,
  },
) as {
  services: Record<
    string,
    {
      command?: string[];
      environment?: Record<string, string>;
      healthcheck?: unknown;
      deploy?: { replicas?: number };
      depends_on?: Record<string, { condition: string }>;
    }
  >;
};

describe('compose.scale.yaml', () => {
  it('runs Redis with AOF and noeviction, and Postgres, each with a health check', () => {
    const { redis, postgres } = compose.services;
    expect(redis!.command).toEqual(
      expect.arrayContaining(['--appendonly', 'yes', '--maxmemory-policy', 'noeviction']),
    );
    expect(redis!.healthcheck).toBeDefined();
    expect(postgres!.healthcheck).toBeDefined();
  });

  it('runs two API nodes and workers, started once both servers are healthy, with settings that exist', () => {
    const { api, worker } = compose.services;
    expect(api!.command).toEqual(['serve']);
    expect(api!.deploy?.replicas).toBe(2);
    expect(worker!.command?.[0]).toBe('worker');
    for (const service of [api!, worker!]) {
      expect(service.depends_on).toEqual({
        redis: { condition: 'service_healthy' },
        postgres: { condition: 'service_healthy' },
      });
      const known = new Set(settingSources.map((source) => source.env));
      for (const name of Object.keys(service.environment ?? {}))
        expect([name, known.has(name)]).toEqual([name, true]);
      expect(service.environment?.DEEPSEARCH_REDIS_URL).toBe('redis://redis:6379');
      expect(service.environment?.DEEPSEARCH_DATABASE_URL).toMatch(
        /^postgres:\/\/deepsearch:.*@postgres:5432\/deepsearch$/,
      );
    }
  });
});
