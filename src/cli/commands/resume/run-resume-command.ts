import { settingOrigin } from '../../../config/config-origins.js';
import type { DeepSearchConfig } from '../../../config/config-schema.js';
import type { ConfigOverrides } from '../../../config/derive-config.js';
import { applyServiceSettings } from '../../../config/service-settings.js';
import { settingSources } from '../../../config/setting-sources.js';
import type { DeepSearchResult } from '../../../events/agent-types.js';
import type { ResearchReport } from '../../../events/research-types.js';
import { resumedConfig } from '../../../runs/resume-target.js';
import type { RunRecord } from '../../../runs/run-record.js';
import type { CliIo } from '../../io/cli-io.js';
import {
  checkReportOutput,
  deliverReport,
  type ReportOutputFlags,
} from '../../output/research-report-output.js';
import { startCliProgress } from '../../progress/cli-progress.js';
import { createCliRuntime } from '../../setup/create-cli-runtime.js';
import { prepareLlm, prepareSearch } from '../../setup/first-run-setup.js';
import { loadCliConfig } from '../../setup/load-cli-config.js';
import { answerWithProgress } from '../ask/run-ask-command.js';
import { findRun, openCliRunStore } from '../runs/run-runs-command.js';

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
 * delivered as `research` delivers it.
 */
export async function runResumeCommand(io: CliIo, options: ResumeCommandOptions): Promise<void> {
  const config = loadCliConfig(io, options.flags, options.configPath);
  // The id is checked (and a prefix resolved) before anything else is set up.
  const store = openCliRunStore(io, config);
  let record: RunRecord;
  try {
    record = findRun(store, options.id);
  } finally {
    store.close();
  }
  const { id } = record;
  const report: ReportOutputFlags = { ...options.report, json: options.json, quiet: options.quiet };
  // A bad --format or --json combination, or an -o file that cannot be written, fails before any work.
  if (record.mode === 'research') checkReportOutput(io, report);
  const overrides = overridesFromFlags(config, options.flags);
  // The services the run ran with (LLM, SearXNG, embeddings...: never keys), unless given as flags now.
  const services = record.settings.services;
  const runConfig = services
    ? applyServiceSettings(config, services, (path) => settingOrigin(config, path)?.startsWith('--') === true)
    : config;
  await prepareLlm(io, runConfig, { quiet: options.quiet });
  prepareSearch(io, resumedConfig(runConfig, record, overrides), { quiet: options.quiet });
  const runtime = createCliRuntime(io, runConfig);
  const resumeOptions = { signal: io.signal, overrides, record: { source: 'cli' as const } };
  try {
    if (record.mode === 'research') {
      const progress = startCliProgress(io, { quiet: options.quiet, debug: config.debug });
      let done: ResearchReport;
      try {
        done = (await runtime.run({ ...resumeOptions, resume: id, onEvent: progress.onEvent }))
          .result as ResearchReport;
      } finally {
        progress.stop();
      }
      await deliverReport(io, report, done, true);
      return;
    }
    await answerWithProgress(
      io,
      { json: options.json, quiet: options.quiet, debug: config.debug },
      async (onEvent) =>
        (await runtime.run({ ...resumeOptions, resume: id, onEvent })).result as DeepSearchResult,
    );
  } finally {
    runtime.close();
  }
}

/**
 * The run settings (budget, agent, search, research) given as flags on this command line, as
 * loaded: those win over the run's stored ones; env and config file values do not.
 */
function overridesFromFlags(config: DeepSearchConfig, flags: Record<string, unknown>): ConfigOverrides {
  const overrides: Record<string, Record<string, unknown>> = {};
  for (const source of settingSources) {
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
