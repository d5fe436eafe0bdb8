import type { CheckpointHook } from '../agent/run-checkpoint.js';
import type { StoredPage } from '../agent/state/page-store.js';
import type { DeepSearchConfig } from '../config/config-schema.js';
import { serviceSettings } from '../config/service-settings.js';
import { isAbortError, isInputError, isProviderError, type Redactor } from '../core/errors/index.js';
import type { AgentEventListener } from '../events/agent-events.js';
import { urlKey } from '../retrieval/normalize-url.js';
import type { RunError, RunRecord, RunSettings, RunSource } from './run-record.js';
import { createRunRecorder } from './run-recorder.js';
import type { RunStore } from './run-store.js';
import { citedSnapshots, type SourceSnapshot } from './source-snapshot.js';

/** How `runtime.run` records a run (`false`: not at all). */
export interface RecordOptions {
  /** Default `local`. */
  owner?: string;
  source?: RunSource;
  mode?: string;
  /** The options as the caller gave them (redacted); default: the run's settings. */
  options?: Record<string, unknown>;
  /** The stored run this one goes on with (resume): its usage so far is added to. */
  resumed?: RunRecord;
}

export interface Recording {
  observe: AgentEventListener;
  checkpoint: CheckpointHook;
  /** Keeps each page read, so the ones the result cites are stored with its end (source-snapshot.ts). */
  pageRead(page: StoredPage): void;
  settle(outcome: { result: object } | { error: unknown }): void;
}

/**
 * The settings a run may have of its own (budget, agent, search choices, and a research run's
 * controller: concurrency, hops, writer share...), and the services it used (no keys): stored to
 * resume it with. The SearXNG URL is among the services, so `auto` chooses again as it did.
 */
export function runSettings(config: DeepSearchConfig, mode: string): RunSettings {
  const { provider, boostHostnames, badHostnames, onlyHostnames } = config.search;
  return {
    budget: { ...config.budget },
    agent: { ...config.agent },
    search: { provider, boostHostnames, badHostnames, onlyHostnames },
    ...(mode === 'research' ? { research: { ...config.research } } : {}),
    services: serviceSettings(config),
  };
}

/**
 * Starts recording a run in the store. A store that cannot be written is reported once through
 * `warn` and the run goes on unrecorded: history is never worth a failed answer.
 */
export function startRecording(input: {
  store: RunStore;
  runId: string;
  question: string;
  config: DeepSearchConfig;
  redact: Redactor;
  record: RecordOptions;
  warn: (message: string) => void;
}): Recording | undefined {
  const { store, runId, record } = input;
  const mode = record.mode ?? 'search';
  const settings = runSettings(input.config, mode);
  try {
    store.begin(
      {
        id: runId,
        owner: record.owner ?? 'local',
        source: record.source ?? 'library',
        mode,
        question: input.question,
        options: record.options ?? (settings as Record<string, unknown>),
        settings,
      },
      'running',
      process.pid,
    );
  } catch (error) {
    input.warn(`this run is not recorded: ${(error as Error).message}`);
    return undefined;
  }
  const recorder = createRunRecorder({
    store,
    runId,
    redact: input.redact,
    prices: input.config.runs.prices,
    usage: record.resumed?.usage ?? undefined,
  });
  const pages = new Map<string, StoredPage>();
  return {
    observe: recorder.observe,
    checkpoint: recorder.checkpoint,
    pageRead(page) {
      pages.set(urlKey(page.url) ?? page.url, page);
    },
    settle(outcome) {
      try {
        if ('result' in outcome)
          recorder.finish({
            status: 'completed',
            result: { ...outcome.result },
            sources: sourcesOf(outcome.result, pages, () => restoredPages(store, runId, record)),
          });
        else
          recorder.finish({
            status: isAbortError(outcome.error) ? 'cancelled' : 'failed',
            error: runError(outcome.error, input.redact),
          });
      } catch (error) {
        input.warn(`the run's end was not recorded: ${(error as Error).message}`);
      }
    },
  };
}

/**
 * The snapshots of what the result cites: the pages read in this process, else (a resumed run's
 * earlier pages) those of the checkpoint it went on from. A snapshot that cannot be made costs the
 * run its evidence, never its answer.
 */
function sourcesOf(
  result: object,
  pages: ReadonlyMap<string, StoredPage>,
  restored: () => ReadonlyMap<string, StoredPage>,
): SourceSnapshot[] | undefined {
  const references = (result as { references?: unknown }).references;
  if (!Array.isArray(references)) return undefined;
  let earlier: ReadonlyMap<string, StoredPage> | undefined;
  return citedSnapshots(references as Array<{ url: string }>, (url) => {
    const key = urlKey(url) ?? url;
    if (pages.has(key)) return pages.get(key);
    earlier ??= restored();
    return earlier.get(key);
  });
}

/** The pages of a resumed run's checkpoint, by URL key (none for a run that was not resumed). */
function restoredPages(store: RunStore, runId: string, record: RecordOptions): Map<string, StoredPage> {
  const pages = new Map<string, StoredPage>();
  if (!record.resumed) return pages;
  try {
    const state = store.restore(runId)?.checkpoint.state as { pages?: unknown } | undefined;
    const entries = Array.isArray(state?.pages)
      ? (state.pages as Array<{ keys?: string[]; page?: StoredPage }>)
      : [];
    for (const { keys, page } of entries)
      if (page?.url && typeof page.text === 'string')
        for (const key of [urlKey(page.url) ?? page.url, ...(keys ?? [])]) pages.set(key, page);
  } catch {
    // A checkpoint that cannot be read leaves those sources without a snapshot.
  }
  return pages;
}

/** A run's error as stored: its message redacted, and the kind of error the API answers it with. */
export function runError(error: unknown, redact: Redactor): RunError {
  const code = (error as { code?: unknown }).code;
  return {
    message: redact(error instanceof Error ? error.message : String(error)),
    type: isInputError(error)
      ? 'invalid_request_error'
      : isProviderError(error)
        ? 'upstream_error'
        : 'server_error',
    code: typeof code === 'string' ? code : null,
  };
}
