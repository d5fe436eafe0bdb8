import * as z from 'zod';
import { type SettingMeta, setting } from './setting.js';

/** A setting of `deepsearch serve`: its description says so, in lists of every command's settings. */
function serveSetting<Schema extends z.ZodType>(schema: Schema, meta: SettingMeta): Schema {
  return setting(schema, { ...meta, description: `serve: ${meta.description}` });
}

/** `deepsearch serve`: the OpenAI-compatible HTTP API. */
export const serverConfigSchema = z
  .object({
    host: serveSetting(z.string().min(1).default('127.0.0.1'), {
      env: 'DEEPSEARCH_HOST',
      flag: 'host',
      description: 'address to listen on',
    }),
    port: serveSetting(z.number().int().min(0).max(65_535).default(3000), {
      env: 'DEEPSEARCH_PORT',
      flag: 'port',
      description: 'port to listen on',
    }),
    // Only sensible on 127.0.0.1 when empty.
    apiKeys: serveSetting(z.array(z.string().min(8)).default([]), {
      env: 'DEEPSEARCH_API_KEYS',
      secret: true,
      description: 'comma-separated keys clients must send as Authorization: Bearer (default: no auth)',
    }),
    // A browser request from any other origin is refused with 403.
    corsOrigins: serveSetting(
      z
        .array(
          z.string().refine(isOriginOrAny, {
            message: 'not an origin: write scheme://host[:port] (e.g. https://chat.example) or *',
          }),
        )
        .default([]),
      {
        env: 'DEEPSEARCH_CORS_ORIGINS',
        flag: 'cors-origins',
        description: "comma-separated origins allowed by CORS, or '*' (default: none)",
      },
    ),
    // A DNS-rebinding page arrives under its own name.
    allowedHosts: serveSetting(z.array(z.string().min(1)).default([]), {
      env: 'DEEPSEARCH_ALLOWED_HOSTS',
      flag: 'allowed-hosts',
      description:
        "comma-separated host names accepted besides localhost, IPs and --host ('.example.com' for subdomains, '*' for any)",
    }),
    // A client trickling its body, or never ending it.
    bodyTimeoutSeconds: serveSetting(z.number().positive().default(10), {
      env: 'DEEPSEARCH_BODY_TIMEOUT',
      flag: 'body-timeout',
      description: 'seconds a client has to send its request body before 408',
    }),
    maxConcurrent: serveSetting(z.number().int().min(1).default(8), {
      env: 'DEEPSEARCH_MAX_CONCURRENT',
      flag: 'max-concurrent',
      description: 'deep searches running at once',
    }),
    // The agent's work (LLM calls and their parsing, searches, reads, the recording) off the thread
    // that answers HTTP, so the server uses a second core and stays responsive under load.
    runThreads: serveSetting(z.number().int().min(0).max(16).default(1), {
      env: 'DEEPSEARCH_RUN_THREADS',
      flag: 'run-threads',
      description:
        "worker threads that run deep searches and research, at most the cores but one (0: in the server's own thread, where they run on one core, with the embedded model or a :memory: run store)",
    }),
    maxQueue: serveSetting(z.number().int().min(0).default(32), {
      env: 'DEEPSEARCH_MAX_QUEUE',
      flag: 'max-queue',
      description: 'requests waiting for a slot before 429',
    }),
    // So one key cannot fill them (429 owner_busy past it); freed slots go to the key holding the fewest.
    keyShare: serveSetting(z.number().gt(0).max(1).default(0.5), {
      env: 'DEEPSEARCH_KEY_SHARE',
      flag: 'key-share',
      description: 'with several API keys, the share of queue places and MCP sessions one key may hold',
    }),
    allowUnauthenticated: serveSetting(z.boolean().default(false), {
      env: 'DEEPSEARCH_ALLOW_UNAUTHENTICATED',
      flag: 'allow-unauthenticated',
      description: 'listen on a non-loopback --host without API keys (refused otherwise)',
    }),
    maxBodyBytes: serveSetting(
      z
        .number()
        .int()
        .min(1024)
        .default(1024 * 1024),
      {
        env: 'DEEPSEARCH_MAX_BODY_BYTES',
        flag: 'max-body-bytes',
        description: 'largest request body accepted',
      },
    ),
    // One line per request, job and service change; a log pipeline wants JSON.
    logFormat: setting(z.enum(['text', 'json']).default('text'), {
      env: 'DEEPSEARCH_LOG_FORMAT',
      flag: 'log-format',
      description: 'serve and worker: text | json: the log as lines a person reads, or JSON lines',
    }),
    // Off the API's port, so a scraper needs no API key (keep it on a private network).
    metricsPort: setting(z.number().int().min(0).max(65_535).optional(), {
      env: 'DEEPSEARCH_METRICS_PORT',
      flag: 'metrics-port',
      description:
        'serve and worker: answer GET /metrics (Prometheus) on this port at DEEPSEARCH_HOST, without a key (serve: also on its own port, behind the API key)',
    }),
    shutdownGraceSeconds: serveSetting(z.number().min(0).default(30), {
      env: 'DEEPSEARCH_SHUTDOWN_GRACE',
      flag: 'shutdown-grace',
      description: 'seconds running requests get to finish on SIGTERM',
    }),
  })
  .strict();

/** '*' or an http(s) origin: a scheme, a host and an optional port, nothing after them but '/'. */
function isOriginOrAny(value: string): boolean {
  if (value.trim() === '*') return true;
  try {
    const url = new URL(value.trim());
    return (
      (url.protocol === 'http:' || url.protocol === 'https:') &&
      url.pathname === '/' &&
      !url.search &&
      !url.hash
    );
  } catch {
    return false;
  }
}
