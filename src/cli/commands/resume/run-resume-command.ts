import { settingOrigin } from '../../../config/config-origins.js';
import type { DeepSearchConfig } from '../../../config/config-schema.js';
import type { ConfigOverrides } from '../../../config/derive-config.js';
import { applyServiceSettings } from '../../../config/service-settings.js';
import { settingSources } from '../../../config/setting-sources.js';
import type { DeepSearchResult } from '../../../events/deep-search-result.js';
import type { ResearchReport } from '../../../events/research-result.js';
import { resumedConfig } from '../../../runs/resume-target.js';
import type { RunRecord } from '../../../runs/run-record.js';
import type { DeepSearchRuntime } from '../../../runtime/create-runtime.js';
import type { QueueMode } from '../../../scale/open-queue-mode.js';
import type { CliIo } from '../../io/cli-io.js';
import { answerWithProgress } from '../../output/answer-with-progress.js';
import {
  checkReportOutput,
  deliverReport,
  type ReportOutputFlags,
} from '../../output/research-report-output.js';
import { startCliProgress } from '../../progress/cli-progress.js';
import { findRun, openCliRuns } from '../../setup/cli-runs.js';
import { createCliRuntime } from '../../setup/create-cli-runtime.js';
import { prepareLlm, prepareSearch } from '../../setup/first-run-setup.js';
import { loadCliConfig } from '../../setup/load-cli-config.js';

export interface ResumeCommandOptions {
  id: string;
  flags: Record<string, unknown>;
  json: boolean;
  quiet: boolean;
  configPath: string | undefined;
  /** Where and how a research run's report goes (as research -o / --format). */
  report?: Pick<ReportOutputFlags, 'output' | 'format'>;
}

/**
 * `deepsearch resume <id>`: the run goes on from its last checkpoint with its own settings
 * (a research run: its concurrency, hops, writer share... too) and the services it ran with (LLM
 * provider, base URL and model, SearXNG URL, embeddings, reranker, reader), except those given as
 * flags now (a raised --max-tokens or --max-steps, --max-hops, another --llm-model). Keys are
 * today's, from flags, env and config file as for ask. A research run ends with its report,
 * delivered as `research` delivers it. In queue mode the run goes back on the queue and a worker
 * goes on with it (resumeOnQueue).
 */
export async function runResumeCommand(io: CliIo, options: ResumeCommandOptions): Promise<void> {
  const config = loadCliConfig(io, options.flags, options.configPath);
  // The id is checked (and a prefix resolved) before anything else is set up.
  const runs = await openCliRuns(io, config);
  try {
    const record = await findRun(runs.store, options.id);
    const report: ReportOutputFlags = { ...options.report, json: options.json, quiet: options.quiet };
    // A bad --format or --json combination, or an -o file that cannot be written, fails before any work.
    if (record.mode === 'research') checkReportOutput(io, report);
    const resume = {
      ...options,
      config,
      report,
      record,
      overrides: overridesFromFlags(config, options.flags),
    };
    if (runs.shared) return await resumeOnQueue(io, runs.shared, resume);
    // This process goes on with the run: the local store is not needed meanwhile.
    await runs.close();
    await resumeHere(io, resume);
  } finally {
    await runs.close();
  }
}

interface ResumeInput extends ResumeCommandOptions {
  config: DeepSearchConfig;
  report: ReportOutputFlags;
  record: RunRecord;
  overrides: ConfigOverrides;
}

/** One machine: this process goes on with the run, with the services it ran with. */
async function resumeHere(io: CliIo, input: ResumeInput): Promise<void> {
  const { config, record } = input;
  // The services the run ran with (LLM, SearXNG, embeddings...: never keys), unless given as flags now.
  const services = record.settings.services;
  const storedConfig = services
    ? applyServiceSettings(config, services, (path) => settingOrigin(config, path)?.startsWith('--') === true)
    : config;
  const runConfig = await prepareLlm(io, storedConfig, { quiet: input.quiet });
  prepareSearch(io, resumedConfig(runConfig, record, input.overrides), { quiet: input.quiet });
  const runtime = createCliRuntime(io, runConfig);
  try {
    await resumeWith(io, runtime, input);
  } finally {
    runtime.close();
  }
}

/**
 * Queue mode: the run goes back on the queue and a worker goes on with it, with the worker's own
 * services (budget and agent flags given now are carried); its progress is followed from here, and
 * Ctrl-C cancels it wherever it runs.
 */
async function resumeOnQueue(io: CliIo, shared: QueueMode, input: ResumeInput): Promise<void> {
  const { createQueuedRuntime } = await import('../../../scale/queued-runtime.js');
  const local = createCliRuntime(io, input.config, { trustStore: shared.trust });
  try {
    await resumeWith(io, createQueuedRuntime(local, shared), input);
  } finally {
    local.close();
  }
}

/** Goes on with the run through `runtime`, showing its progress; a research run ends with its report delivered. */
async function resumeWith(io: CliIo, runtime: DeepSearchRuntime, input: ResumeInput): Promise<void> {
  const { id, mode } = input.record;
  const resume = {
    resume: id,
    signal: io.signal,
    overrides: input.overrides,
    record: { source: 'cli' as const },
  };
  const { debug } = input.config;
  if (mode === 'research') {
    const progress = startCliProgress(io, { quiet: input.quiet, debug });
    let done: ResearchReport;
    try {
      done = (await runtime.run({ ...resume, onEvent: progress.onEvent })).result as ResearchReport;
    } finally {
      progress.stop();
    }
    await deliverReport(io, input.report, done, true);
    return;
  }
  await answerWithProgress(
    io,
    { json: input.json, quiet: input.quiet, debug },
    async (onEvent) => (await runtime.run({ ...resume, onEvent })).result as DeepSearchResult,
  );
}

/**
/**
 * The run settings (budget, agent, search, research) given as flags on this command line, as
 * loaded: those win over the run's stored ones; env and config file values do not.
 */
function overridesFromFlags(config: DeepSearchConfig, flags: Record<string, unknown>): ConfigOverrides {
  const overrides: Record<string, Record<string, unknown>> = {};
  for (const source of settingSources()) {
    if (!source.flag || !(source.flag in flags)) continue;
    const [section, field, ...rest] = source.path.split('.');
    if (!section || !field || rest.length > 0 || !['budget', 'agent', 'search', 'research'].includes(section))
      continue;
    overrides[section] ??= {};
    overrides[section][field] = (config as unknown as Record<string, Record<string, unknown>>)[section]![
      field
    ];
  }
  return overrides as ConfigOverrides;
}
