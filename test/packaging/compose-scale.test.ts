import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { loadConfig } from '../../src/config/load-config.js';
import { settingSources } from '../../src/config/setting-sources.js';
import { runCliInMemory } from '../helpers/run-cli-in-memory.js';

// Docker cannot run here: compose.scale.yaml is read as Compose reads it (YAML, merge keys,
// ${VAR:-default} interpolation), and what it starts is checked against the code it runs.
const read = (path: string) => readFileSync(fileURLToPath(new URL(`../../${path}`, import.meta.url)), 'utf8');

interface Service {
  image?: string;
  command?: string[];
  environment?: Record<string, string>;
  healthcheck?: { test: string[] };
  deploy?: { replicas?: number };
  depends_on?: Record<string, { condition: string }>;
  stop_grace_period?: string;
  ports?: string[];
}
const compose = parse(read('compose.scale.yaml'), { merge: true }) as { services: Record<string, Service> };
const { redis, postgres, api, worker } = compose.services as Record<
  'redis' | 'postgres' | 'api' | 'worker',
  Service
>;

/** A value as Compose gives it with only the required variables set: `${X:-d}` is d, `${X:?msg}` a stand-in. */
function interpolate(value: string, required: Record<string, string>): string {
  return value.replace(/\$\{(\w+)(?::([-?])([^}]*))?\}/g, (_, name: string, kind?: string, rest = '') =>
    kind === '-' ? rest : (required[name] ?? (kind === '?' ? `<${name} unset>` : '')),
  );
}
const required = {
  POSTGRES_PASSWORD: 'secret',
  DEEPSEARCH_LLM_BASE_URL: 'http://models:8000/v1',
  DEEPSEARCH_LLM_MODEL: 'some-model',
};
const seconds = (duration = '10s') => Number(/^(\d+)s$/.exec(duration)?.[1] ?? Number.NaN);

describe('compose.scale.yaml', () => {
  it('runs Redis with AOF and noeviction, and Postgres, each with a health check', () => {
    expect(Object.keys(compose.services).sort()).toEqual([
      'api',
      'otel-collector',
      'postgres',
      'prometheus',
      'redis',
      'worker',
    ]);
    expect(redis.command).toEqual(
      expect.arrayContaining(['--appendonly', 'yes', '--maxmemory-policy', 'noeviction']),
    );
    expect(redis.healthcheck?.test).toEqual(['CMD', 'redis-cli', 'ping']);
    // pg_isready asks for the user and database the nodes connect as.
    expect(postgres.environment).toMatchObject({ POSTGRES_USER: 'deepsearch', POSTGRES_DB: 'deepsearch' });
    expect(postgres.healthcheck?.test.join(' ')).toContain('pg_isready -U deepsearch -d deepsearch');
  });

  it("runs two API nodes and workers, started once both servers are healthy, with the code's settings", () => {
    expect(api.command).toEqual(['serve']);
    expect(api.deploy?.replicas).toBe(2);
    expect(api.ports).toEqual(['127.0.0.1:3000-3001:3000']);
    expect(worker.command?.[0]).toBe('worker');
    // Our settings' variables, and the OpenTelemetry SDK's standard one (docs/deployment.md).
    const known = new Set([...settingSources().map((source) => source.env), 'OTEL_EXPORTER_OTLP_ENDPOINT']);
    for (const service of [api, worker]) {
      expect(service.depends_on).toEqual({
        redis: { condition: 'service_healthy' },
        postgres: { condition: 'service_healthy' },
      });
      for (const name of Object.keys(service.environment ?? {}))
        expect([name, known.has(name)]).toEqual([name, true]);
      // With only the required variables set, the environment is a valid queue-mode config.
      const env = Object.fromEntries(
        Object.entries(service.environment ?? {}).map(([name, value]) => [
          name,
          interpolate(value, required),
        ]),
      );
      const config = loadConfig({ env });
      expect(config.scale).toMatchObject({
        redisUrl: 'redis://redis:6379',
        databaseUrl: 'postgres://deepsearch:secret@postgres:5432/deepsearch',
        maxQueue: 256,
        llmConcurrency: 32,
      });
      // Docker's SIGKILL comes after stop_grace_period: later than the grace the process gives its work.
      expect(seconds(service.stop_grace_period)).toBeGreaterThan(config.server.shutdownGraceSeconds);
    }
  });

  it("exposes every node and worker's metrics port, scraped by the monitoring profile's Prometheus", () => {
    const file = parse(read('compose.scale.yaml'), { merge: true }) as {
      services: Record<string, Service & { expose?: string[]; profiles?: string[] }>;
      configs: { prometheus: { content: string } };
    };
    const port = api.environment?.DEEPSEARCH_METRICS_PORT;
    expect(loadConfig({ env: { DEEPSEARCH_METRICS_PORT: port! } }).server.metricsPort).toBe(9464);
    for (const name of ['api', 'worker']) expect(file.services[name]!.expose).toEqual([port]);
    expect(file.services.prometheus!.profiles).toEqual(['monitoring']);
    const scrape = parse(file.configs.prometheus.content) as {
      scrape_configs: Array<{ dns_sd_configs: Array<{ names: string[]; port: number }> }>;
    };
    expect(scrape.scrape_configs[0]!.dns_sd_configs[0]).toMatchObject({
      names: ['api', 'worker'],
      port: 9464,
    });
  });

  it("sends traces to the monitoring profile's OpenTelemetry collector when the endpoint is set, to nothing otherwise", () => {
    const file = parse(read('compose.scale.yaml'), { merge: true }) as {
      services: Record<string, Service & { expose?: string[]; profiles?: string[] }>;
      configs: { 'otel-collector': { content: string } };
    };
    // Unset by default: no process loads the SDK or sends anything.
    expect(interpolate(api.environment?.OTEL_EXPORTER_OTLP_ENDPOINT ?? '', {})).toBe('');
    expect(interpolate(worker.environment?.OTEL_EXPORTER_OTLP_ENDPOINT ?? '', {})).toBe('');
    const collector = file.services['otel-collector']!;
    expect(collector.profiles).toEqual(['monitoring']);
    expect(collector.expose).toEqual(['4318']);
    const config = parse(file.configs['otel-collector'].content) as {
      receivers: { otlp: { protocols: { http: { endpoint: string } } } };
      service: { pipelines: { traces: { receivers: string[] } } };
    };
    expect(config.receivers.otlp.protocols.http.endpoint).toBe('0.0.0.0:4318');
    expect(config.service.pipelines.traces.receivers).toEqual(['otlp']);
  });

  it("gives workers the health port the image's HEALTHCHECK asks, with flags the worker command has", async () => {
    const port = /DEEPSEARCH_PORT=(\d+)/.exec(read('Dockerfile'))?.[1];
    expect(read('Dockerfile')).toMatch(/HEALTHCHECK[\s\S]*\/health/);
    const args = (worker.command ?? []).map((arg) => interpolate(arg, required));
    expect(args).toEqual(['worker', '--concurrency', '8', '--health-port', port]);
    const help = await runCliInMemory(['worker', '--help'], { env: { NO_COLOR: '1' }, cwd: process.cwd() });
    for (const flag of args.filter((arg) => arg.startsWith('--'))) expect(help.stdout).toContain(flag);
  });
});
