import { once } from 'node:events';
import type { DeepSearchConfig } from '../../../config/config-schema.js';
import { withSettings } from '../../../config/frozen-config.js';
import { ConfigError } from '../../../core/errors/index.js';
import { listenMetrics } from '../../../metrics/metrics-server.js';
import { createProcessMetrics, type ProcessMetrics } from '../../../metrics/process-metrics.js';
import { withRunMetrics } from '../../../metrics/run-metrics.js';
import type { DeepSearchRuntime } from '../../../runtime/create-runtime.js';
import { guardRunStore } from '../../../scale/backing-services.js';
import type { QueueMode } from '../../../scale/open-queue-mode.js';
import { runThreadCount } from '../../../scale/run-threads/run-thread-count.js';
import type { RunThreads } from '../../../scale/run-threads/run-threads.js';
import { serverModels } from '../../../server/run-request/server-models.js';
import { assertGuardedBind, startServer } from '../../../server/start-server.js';
import { createPostgresWatchStore } from '../../../watch/store/postgres-watch-store.js';
import { createSqliteWatchStore } from '../../../watch/store/sqlite-watch-store.js';
import type { WatchStore } from '../../../watch/store/watch-store.js';
import type { CliIo } from '../../io/cli-io.js';
import { createCliRuntime, sqliteLoaderFrom, sqliteModulePath } from '../../setup/create-cli-runtime.js';
import { prepareLlm, prepareSearch } from '../../setup/first-run-setup.js';
import { loadCliConfig } from '../../setup/load-cli-config.js';
import { createProcessLog, type ProcessLog } from '../../setup/process-log.js';

export interface ServeCommandOptions {
  flags: Record<string, unknown>;
  configPath: string | undefined;
  yes?: boolean;
}

/**
 * `deepsearch serve`: the OpenAI-compatible API until SIGTERM or Ctrl-C, then a graceful stop.
 * The log (a line per request and per backing-service change, as text or JSON lines: --log-format)
 * goes to stdout; start and stop messages for a person go to stderr.
 */
export async function runServeCommand(io: CliIo, options: ServeCommandOptions): Promise<void> {
  const loaded = loadCliConfig(io, options.flags, options.configPath);
  const settings = loaded.server;
  // Before the LLM checks: a bind that would be refused anyway fails at once.
  assertGuardedBind(settings);
  // Fail at start, not on the first client's request, when search or the LLM (or its key) is not set.
  const config = await prepareLlm(io, loaded, { offerDownload: true, yes: options.yes });
  prepareSearch(io, config);
  const log = createProcessLog(io, config, { role: 'serve' });
  const metrics = createProcessMetrics();
  const { runtime, queue, runThreads } = await serveRuntime(io, config, settings, log, metrics);
  const watches = openServeWatchStore(io, config, queue);
  const server = await startServer({
    runtime,
    settings,
    queue,
    metrics,
    ...(watches ? { watches: { store: watches, schedule: true } } : {}),
    log: (line) => log.request(line),
  }).catch((error: NodeJS.ErrnoException) => {
    if (error.code !== 'EADDRINUSE' && error.code !== 'EACCES') throw error;
    throw new ConfigError(
      `cannot listen on ${settings.host}:${settings.port} (${error.code}): choose another --port`,
      {
        cause: error,
      },
    );
  });
  const metricsServer =
    settings.metricsPort === undefined
      ? undefined
      : await listenMetrics({ host: settings.host, port: settings.metricsPort, registry: metrics.registry });
  const runsKept = runtime.runs !== undefined || queue !== undefined;
  // One write: whoever reads the first line (a supervisor, a test) has the page's address too.
  // The page starts, lists and follows runs: without the run store it can only say so.
  io.stderr.write(
    `deepsearch: serving ${serverModels.join(', ')} at ${server.url}/v1 (POST /v1/chat/completions, POST /v1/responses${runsKept ? ', POST /v1/research' : ''}), MCP at ${server.url}/mcp${queue ? '; queue mode: runs go to the workers' : ''}\n` +
      `deepsearch: web page at ${server.url}/${runsKept ? '' : ' (it needs the run store: runs are off, --no-runs)'}\n` +
      `deepsearch: metrics at ${server.url}/metrics${metricsServer ? ` and ${metricsServer.url}` : ''}\n`,
  );
  if (!io.signal.aborted) await once(io.signal, 'abort');
  io.stderr.write(
    `deepsearch: stopping; running requests get up to ${settings.shutdownGraceSeconds}s to finish\n`,
  );
  await server.close();
  await watches?.close();
  await queue?.close();
  await metricsServer?.close();
  // The run threads' runs ended with the requests; their spans are sent before the process ends.
  await runThreads?.close();
  runtime.close();
  log.close();
}

/**
 * The node's runtime: its own (runs in this process, SQLite; the deep searches and research in
 * its run threads, server.runThreads), or in queue mode (both URLs set)
 * the queued one, whose deep searches and research go to the workers. Postgres and Redis that
 * cannot be reached are a ConfigError at start.
 */
async function serveRuntime(
  io: CliIo,
  config: DeepSearchConfig,
  settings: DeepSearchConfig['server'],
  log: ProcessLog,
  metrics: ProcessMetrics,
): Promise<{ runtime: DeepSearchRuntime; queue?: QueueMode; runThreads?: RunThreads }> {
  // Runs in this process are counted; in queue mode the workers run (and count) them.
  if (!config.scale.redisUrl || !config.scale.databaseUrl) {
    const runtime = createCliRuntime(io, config);
    const threads = runThreadCount(config, settings.runThreads);
    if (threads === 0) return { runtime: withRunMetrics(runtime, metrics) };
    const { startRunThreads, withRunThreads } = await import('../../../scale/run-threads/run-threads.js');
    const runThreads = startRunThreads({
      config,
      threads,
      store: runtime.runs,
      sqliteModule: sqliteModulePath(io),
      warn: (message) => log.warn(new Error(message)),
    });
    return { runtime: withRunMetrics(withRunThreads(runtime, runThreads), metrics), runThreads };
  }
  // Loaded only in queue mode, with pg, ioredis and bullmq behind them.
  const [{ openQueueMode }, { createQueuedRuntime }] = await Promise.all([
    import('../../../scale/open-queue-mode.js'),
    import('../../../scale/queued-runtime.js'),
  ]);
  // The node keeps no run of its own: no SQLite run store is opened.
  const nodeConfig = withSettings(config, { runs: { file: undefined } });
  const queue = await openQueueMode({
    scale: config.scale,
    retention: config.runs.retention,
    onError: log.warn,
    onServiceChange: log.serviceChange,
  });
  return {
    runtime: createQueuedRuntime(createCliRuntime(io, nodeConfig, { trustStore: queue.trust }), queue),
    queue,
  };
}

/**
 * Where the server keeps watches, beside its runs: the deployment's Postgres in queue mode, the
 * run store's SQLite file otherwise; none when runs are off (/v1/watches then says so).
 */
function openServeWatchStore(
  io: CliIo,
  config: DeepSearchConfig,
  queue: QueueMode | undefined,
): WatchStore | undefined {
  if (queue) return createPostgresWatchStore(queue.database);
  if (!config.runs.enabled || !config.runs.file) return undefined;
  // Opened on first use: a file that cannot be opened makes /v1/watches a 503 naming it, as the runs.
  const store = createSqliteWatchStore({ file: config.runs.file, loadDriver: sqliteLoaderFrom(io) });
  return guardRunStore(store, config.runs.file);
}
