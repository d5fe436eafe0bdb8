// A run thread of `deepsearch serve` (run-threads.ts starts them): a runtime of its own, made from
// the server's config, runs the deep searches and research the server hands it and posts back
// their events and their end. Its runs are recorded in the same run store: begun and read through
// a connection of its own, their events, checkpoints and ends written by the server's thread
// (forwarded-run-writes.ts); domain trust is read from and added to the same records; its pages
// are parsed by the server's extraction pool.
import { createRequire } from 'node:module';
import { parentPort, workerData } from 'node:worker_threads';
import type BetterSqlite3 from 'better-sqlite3';
import { recordConfigOrigins } from '../../config/config-origins.js';
import type { AgentEvent } from '../../events/agent-events.js';
import { createTrustRecords } from '../../knowledge/trust-records.js';
import { toTrustStore } from '../../knowledge/trust-store.js';
import { settleAbortsBeforeRequests } from '../../platform/http/redirect-safe-fetch.js';
import { createConfiguredRunStore } from '../../runs/run-store.js';
import { createRuntime, type RunRequest } from '../../runtime/create-runtime.js';
import { withTraceContext } from '../../telemetry/trace-context.js';
import { tracingRequested } from '../../telemetry/tracing-requested.js';
import { forwardRunWrites } from './forwarded-run-writes.js';
import { remoteExtractor } from './remote-extractor.js';
import { createRunCancels } from './run-cancels.js';
import { createRunStarts } from './run-starts.js';
import type { FromRunThread, RunThreadData, ToRunThread } from './run-thread-protocol.js';
import { toThreadError } from './thread-errors.js';
import { createTurnOutbox } from './turn-outbox.js';

const port = parentPort;
if (!port) throw new Error('run-thread-main runs as a worker thread of deepsearch serve');
const data = workerData as RunThreadData;
if (data.origins)
  recordConfigOrigins(data.config, { ...data.origins, origins: new Map(data.origins.origins) });
const post = (message: FromRunThread) => port.postMessage(message);
/** The runs' writes and events of one turn of the event loop, posted as one message at its end. */
const outbox = createTurnOutbox(post);

// Traced as the server's own runs are, each run under the span of the request that asked for it.
const tracing = tracingRequested(process.env) ? await import('../../telemetry/start-tracing.js') : undefined;
if (tracing) {
  const { packageVersion } = await import('../../core/package-version.js');
  await tracing.startTracing({ env: process.env, role: 'server', version: packageVersion() }, (message) =>
    post({ type: 'warning', message }),
  );
}

const sqliteModule = data.sqliteModule;
const loadSqlite = sqliteModule
  ? () => createRequire(sqliteModule)(sqliteModule) as typeof BetterSqlite3
  : undefined;
const trustRecords = createTrustRecords({
  jsonFile: data.config.retrieval.hostHealthFile,
  knowledgeFile: data.config.knowledge.file,
  loadDriver: loadSqlite,
});
// Runs begin here and are read here; their events, checkpoints and ends are written by the server's
// thread, which has the time for it (the agent's work is this thread's).
const local = data.forwardWrites ? createConfiguredRunStore(data.config.runs, loadSqlite) : undefined;
const runs = local && forwardRunWrites(local, (id, write) => outbox.write({ id, write }));
const runtime = createRuntime({
  config: data.config,
  ...(runs ? { runStore: runs.store } : {}),
  loadSqlite,
  extractor: remoteExtractor(data.extractions),
  // Shared with the other run threads: each reads what the others learnt (once a minute) and adds its counts.
  ...(trustRecords ? { trustStore: toTrustStore(trustRecords) } : {}),
  onCacheUnavailable: (message) => post({ type: 'warning', message }),
});

// Each provider request reads the cancellations already posted first, not after a turn of the
// event loop (which would hold it until this thread has taken every queued run).
const cancels = createRunCancels(data.cancels);
settleAbortsBeforeRequests(cancels.drain);
const relay = (id: number) => (event: AgentEvent) => outbox.event(id, event);

async function run(message: Extract<ToRunThread, { type: 'run' }>): Promise<void> {
  const { id } = message;
  const controller = cancels.start(id);
  try {
    const request = { ...(message.request as RunRequest), signal: controller.signal, onEvent: relay(id) };
    const outcome = await withTraceContext(message.trace, () => runtime.run(request));
    outbox.flush();
    post({ type: 'done', id, outcome });
  } catch (error) {
    outbox.flush();
    post({ type: 'failed', id, error: toThreadError(error) });
  } finally {
    cancels.end(id);
  }
}

async function close(): Promise<void> {
  cancels.abortAll();
  await tracing?.stopTracing();
  runtime.close();
  runs?.store.close();
  trustRecords?.close();
  data.extractions.close();
  cancels.close();
  port?.close();
}

// A burst's runs, read in one go, begin one per turn of the event loop (run-starts.ts).
const starts = createRunStarts<Extract<ToRunThread, { type: 'run' }>>((message) => void run(message));
port.on('message', (message: ToRunThread) => {
  if (message.type === 'run') starts.add(message);
  else if (message.type === 'close') {
    starts.clear();
    void close();
  } else if (message.type === 'written') for (const reply of message.replies) runs?.settle(reply);
});
// The agent's code loaded now, not by the first run this thread gets.
await Promise.all([import('../../agent/run-agent.js'), import('../../agent/run-loop.js')]);
post({ type: 'ready' });
