import { once } from 'node:events';
import { resolveProxySettings } from '../../../config/proxy-settings.js';
import { ConfigError } from '../../../core/errors/index.js';
import { listenMetrics, type MetricsServer } from '../../../metrics/metrics-server.js';
import { createProcessMetrics, trackQueue } from '../../../metrics/process-metrics.js';
import { countJobEvent, withRunMetrics } from '../../../metrics/run-metrics.js';
import { createOutboundFetch } from '../../../platform/http/outbound-fetch.js';
import { createLlmCallFetch } from '../../../scale/llm-call-fetch.js';
import { isQueueMode, openQueueMode } from '../../../scale/open-queue-mode.js';
import { createRunJobHandler } from '../../../scale/run-job-handler.js';
import { type RunReconciler, startRunReconciler } from '../../../scale/run-reconciler.js';
import { createWorkerRunStore } from '../../../scale/worker-run-store.js';
import type { CliIo } from '../../io/cli-io.js';
import { createCliRuntime } from '../../setup/create-cli-runtime.js';
import { prepareLlm, prepareSearch } from '../../setup/first-run-setup.js';
import { loadCliConfig } from '../../setup/load-cli-config.js';
import { createProcessLog } from '../../setup/process-log.js';
import type { LogFormat } from '../../setup/process-logger.js';
import { listenWorkerHealth, type WorkerHealth } from './worker-health.js';

export interface WorkerCommandOptions {
  flags: Record<string, unknown>;
  configPath: string | undefined;
  concurrency: number;
  /** GET /health on this port (worker-health.ts); none when unset. */
  healthPort?: number;
  /** Overrides server.logFormat (DEEPSEARCH_LOG_FORMAT). */
  logFormat?: LogFormat;
  /** GET /metrics on this port (overrides server.metricsPort, DEEPSEARCH_METRICS_PORT). */
  metricsPort?: number;
}

/**
 * `deepsearch worker`: takes jobs from the queue and runs them, `concurrency` at once, recording
 * them in Postgres, until SIGTERM or Ctrl-C. Then it takes no new job, gives the running ones
 * server.shutdownGraceSeconds to end, and hands the rest back to the queue (another worker
 * resumes them from their last checkpoint; none is marked cancelled).
 */
export async function runWorkerCommand(io: CliIo, options: WorkerCommandOptions): Promise<void> {
  const loaded = loadCliConfig(io, options.flags, options.configPath);
  if (!isQueueMode(loaded.scale))
    throw new ConfigError(
      'deepsearch worker runs jobs of queue mode: set DEEPSEARCH_REDIS_URL (jobs) and DEEPSEARCH_DATABASE_URL (runs), the same as the `deepsearch serve` nodes that take the requests',
      { code: 'config_scale_missing' },
    );
  const config = await prepareLlm(io, loaded);
  prepareSearch(io, config);
  // A line per job and per service change on stdout; a service away fails the same way many
  // times a second: its warnings are collapsed (process-log.ts).
  const log = createProcessLog(io, config, { role: 'worker', format: options.logFormat });
  const warn = log.warn;
  const shared = await openQueueMode({
    scale: config.scale,
    retention: config.runs.retention,
    onError: warn,
    onServiceChange: log.serviceChange,
  });
  const runs = createWorkerRunStore({ store: shared.store, log: shared.log });
  // With a cap on LLM calls across workers, a call to a model server holds a place under it;
  // searches and page reads go as `serve` sends them (the runtime's own fetch: the reader's
  // connect-time guard, the browser for app shells). Without a cap, the runtime is serve's.
  // (A run awaits each checkpoint's write before its next step: worker-run-store.ts.)
  const modelFetch =
    shared.llmLimit &&
    createLlmCallFetch({
      fetch: createOutboundFetch({ proxy: resolveProxySettings(config) }),
      config,
      limit: shared.llmLimit,
    });
  const metrics = createProcessMetrics();
  trackQueue(metrics, shared.queue);
  const runtime = withRunMetrics(
    createCliRuntime(io, config, { runStore: runs, modelFetch, trustStore: shared.trust }),
    metrics,
  );
  const handler = createRunJobHandler({
    runtime,
    store: shared.store,
    runs,
    onJobEvent: (event) => {
      log.job(event);
      countJobEvent(metrics, event);
    },
  });
  const metricsPort = options.metricsPort ?? config.server.metricsPort;
  let metricsServer: MetricsServer | undefined;
  let health: WorkerHealth | undefined;
  let reconciler: RunReconciler | undefined;
  try {
    await shared.queue.work({ handler, concurrency: options.concurrency });
    reconciler = startRunReconciler({
      store: shared.store,
      queue: shared.queue,
      intervalMs: config.scale.reconcileSeconds * 1000,
      onRequeued: (runId) =>
        log.logger.warn(
          { event: 'run-requeued', runId },
          `run ${runId} was lost by the queue (Redis restarted?): put back on it`,
        ),
      onError: warn,
    });
    if (metricsPort !== undefined)
      metricsServer = await listenMetrics({
        host: config.server.host,
        port: metricsPort,
        registry: metrics.registry,
      });
    if (options.healthPort !== undefined)
      health = await listenWorkerHealth({
        host: config.server.host,
        port: options.healthPort,
        taking: () => !io.signal.aborted,
      });
    io.stderr.write(
      `deepsearch: worker taking jobs (${options.concurrency} at once)${health ? `, health at ${health.url}` : ''}${metricsServer ? `, metrics at ${metricsServer.url}` : ''}; SIGTERM or Ctrl-C stops it\n`,
    );
    if (!io.signal.aborted) await once(io.signal, 'abort');
    const graceSeconds = config.server.shutdownGraceSeconds;
    io.stderr.write(
      `deepsearch: worker stopping; running jobs get up to ${graceSeconds}s, then go back to the queue\n`,
    );
  } finally {
    reconciler?.stop();
    const { handedBack } = await shared.close({ graceMs: config.server.shutdownGraceSeconds * 1000 });
    if (handedBack.length > 0)
      io.stderr.write(`deepsearch: handed back to the queue: ${handedBack.join(', ')}\n`);
    runtime.close();
    log.close();
    // It answered 503 during the grace period; now the process is done.
    await health?.close();
    await metricsServer?.close();
  }
}
