import type { DeepSearchConfig } from '../../../config/config-schema.js';
import { ConfigError } from '../../../core/errors/index.js';
import { runError } from '../../../runs/run-recording.js';
import type { DeepSearchRuntime } from '../../../runtime/create-runtime.js';
import { createLocalRunBackend } from '../../../scale/local-run-backend.js';
import type { RunBackend } from '../../../scale/run-backend.js';
import { claimComparers } from '../../../watch/claims/claim-judge.js';
import type { CompareOptions } from '../../../watch/claims/claim-types.js';
import { openWatchService } from '../../../watch/open-watch-service.js';
import { createPostgresWatchStore } from '../../../watch/store/postgres-watch-store.js';
import { createSqliteWatchStore } from '../../../watch/store/sqlite-watch-store.js';
import type { WatchService } from '../../../watch/watch-service.js';
import type { CliIo } from '../../io/cli-io.js';
import { openCliRuns } from '../../setup/cli-runs.js';
import { createCliRuntime, sqliteLoaderFrom } from '../../setup/create-cli-runtime.js';

export interface CliWatches {
  service: WatchService;
  close(): Promise<void>;
}

const cliFlags = { every: '--every', cron: '--cron', notify: '--notify' };

/**
 * The watches `deepsearch watch` works on, and where their checks run: on one machine the run
 * store's SQLite file and this process (its runs recorded like `ask`'s, listed by `runs list`); in
 * queue mode the deployment's Postgres and its workers. The runtime is made only when a check runs.
 */
export async function openCliWatches(io: CliIo, config: DeepSearchConfig): Promise<CliWatches> {
  const { redisUrl, databaseUrl } = config.scale;
  const onProblem = (message: string) => io.stderr.write(`deepsearch: warning: ${message}\n`);
  const baseUrl = () =>
    `http://${config.server.host === '0.0.0.0' ? '127.0.0.1' : config.server.host}:${config.server.port}`;
  if (redisUrl && databaseUrl) {
    const runs = await openCliRuns(io, config);
    const shared = runs.shared!;
    const store = createPostgresWatchStore(shared.database);
    return {
      service: openWatchService({ config, store, backend: shared, baseUrl, onProblem, names: cliFlags }),
      close: () => runs.close(),
    };
  }
  if (!config.runs.enabled || !config.runs.file)
    throw new ConfigError('the run store is off (--no-runs or DEEPSEARCH_NO_RUNS): watches are kept in it');
  const store = createSqliteWatchStore({ file: config.runs.file, loadDriver: sqliteLoaderFrom(io) });
  let made: { backend: RunBackend; runtime: DeepSearchRuntime; close: () => void } | undefined;
  const local = () => {
    made ??= localBackend(io, config);
    return made.backend;
  };
  // The runtime's model and embeddings, asked only when a check compares claims.
  const comparers = () => {
    local();
    return claimComparers({ llm: made!.runtime.llm, embeddings: made!.runtime.embedding, signal: io.signal });
  };
  const compare: CompareOptions = {
    judge: (before, after) => comparers().judge!(before, after),
    embed: async (texts) => comparers().embed?.(texts) ?? texts.map(() => undefined),
    signal: io.signal,
  };
  // Made on first use: add, list and show need no LLM, nor a runtime.
  const backend: Pick<RunBackend, 'store' | 'queue' | 'isInterrupted' | 'outlivesProcess'> = {
    get store() {
      return local().store;
    },
    get queue() {
      return local().queue;
    },
    isInterrupted: (run) => local().isInterrupted(run),
    outlivesProcess: false,
  };
  return {
    service: openWatchService({ config, store, backend, baseUrl, compare, onProblem, names: cliFlags }),
    close: async () => {
      made?.close();
      await store.close();
    },
  };
}

/** This process runs the checks' runs, recorded in the run store, as `deepsearch ask` does. */
function localBackend(
  io: CliIo,
  config: DeepSearchConfig,
): { backend: RunBackend; runtime: DeepSearchRuntime; close: () => void } {
  const runtime = createCliRuntime(io, config);
  if (!runtime.runs)
    throw new ConfigError('the run store is off (--no-runs or DEEPSEARCH_NO_RUNS): watches are kept in it');
  const backend = createLocalRunBackend({
    runtime,
    runs: runtime.runs,
    // One check at a time: no other run of this process competes for a slot.
    slots: { acquire: async () => () => undefined },
    shutdownSignal: io.signal,
    failure: (error) => runError(error, runtime.redact),
  });
  return { backend, runtime, close: () => runtime.close() };
}
