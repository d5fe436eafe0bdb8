import type { RunRestore } from '../agent/run-checkpoint.js';
import { ConfigError, InputError } from '../core/errors/index.js';
import type { DeepSearchResult } from '../events/deep-search-result.js';
import type { ResearchPlan, ResearchReport } from '../events/research-result.js';
import type { ResearchRestore } from '../research/research-checkpoint.js';
import { isResearchRestore } from '../research/research-checkpoint.js';
import { type ResumeTarget, resumedConfig, resumeTarget } from '../runs/resume-target.js';
import type { AskOptions, ResumeOptions, RunOutcome, RunRequest } from './create-runtime.js';
import { type RunMode, recordedRun } from './recorded-run.js';
import type { RuntimeProviders } from './runtime-providers.js';

/**
 * The runtime's one entry: a new deep search or research run, or a stored run resumed from its
 * last checkpoint (same run id, events continue its sequence) in the mode it was started in.
 */
export async function runRuntime(runtime: RuntimeProviders, request: RunRequest): Promise<RunOutcome> {
  if ('resume' in request) return resumeRun(runtime, request);
  if (request.mode === 'research') {
    const { question, plan, ...options } = request;
    return {
      mode: 'research',
      result: await recordedRun(runtime, question, options, researchMode({ plan })),
    };
  }
  if (request.mode === 'search') {
    const { question, history, ...options } = request;
    return {
      mode: 'search',
      result: await recordedRun(runtime, question, { ...options, history }, searchMode({ history })),
    };
  }
  // Only a caller without types gets here (a JavaScript user, a request read from JSON).
  const mode = (request as { mode?: unknown }).mode;
  throw new InputError(`unknown run mode '${String(mode)}' (available: search, research; or resume: runId)`, {
    param: 'mode',
  });
}

async function resumeRun(
  runtime: RuntimeProviders,
  request: Extract<RunRequest, { resume: string }>,
): Promise<RunOutcome> {
  const { resume: runId, ...resumeOptions } = request;
  const target = findResumeTarget(runtime, runId, resumeOptions.owner);
  const options = resumedOptions(runtime, target, resumeOptions);
  const question = target.record.question;
  if (target.kind === 'search')
    return {
      mode: 'search',
      result: await recordedRun(runtime, question, options, searchMode({ restore: target.restore })),
    };
  if (!isResearchRestore(target.restore))
    throw new InputError(`run ${runId} has no research checkpoint to go on from`, {
      code: 'run_not_resumable',
    });
  return {
    mode: 'research',
    result: await recordedRun(runtime, question, options, researchMode({ restore: target.restore })),
  };
}

/** The stored run to go on with: it exists for this owner and can resume (resume-target.ts). */
function findResumeTarget(runtime: RuntimeProviders, runId: string, owner: string | undefined): ResumeTarget {
  if (!runtime.runs)
    throw new ConfigError(
      'runs are not recorded (runs.enabled is off or runs.file unset): nothing to resume',
    );
  return resumeTarget({ store: runtime.runs, runId, owner });
}

/** A resumed run's options: its own settings (a raised budget given now), id and record. */
function resumedOptions(
  runtime: RuntimeProviders,
  target: ResumeTarget,
  resumeOptions: ResumeOptions,
): ResumeOptions & Pick<AskOptions, 'config' | 'runId' | 'record'> {
  return {
    ...resumeOptions,
    config: resumedConfig(runtime.config, target.record, resumeOptions.overrides),
    runId: target.record.id,
    record:
      resumeOptions.record === false
        ? false
        : { ...target.record, ...resumeOptions.record, resumed: target.record },
  };
}

/** Deep search as a recorded run: the agent's loop, loaded on the first question. */
function searchMode(options: {
  history?: ReadonlyArray<{ question: string; answer: string }>;
  restore?: RunRestore;
}): RunMode<DeepSearchResult> {
  return {
    mode: 'search',
    load: async () => {
      const [{ prepareRun }, { runLoop }] = await Promise.all([
        import('../agent/run-agent.js'),
        import('../agent/run-loop.js'),
      ]);
      return ({ notices, ...setup }) => {
        const run = prepareRun({ ...setup, history: options.history, restore: options.restore });
        for (const message of notices) run.events.emit({ type: 'warning', step: 0, message });
        return { events: run.events, execute: () => runLoop(run) };
      };
    },
  };
}

/** Research as a recorded run: the sections' events come in the task bus's one sequence. */
function researchMode(options: { plan?: ResearchPlan; restore?: ResearchRestore }): RunMode<ResearchReport> {
  return {
    mode: 'research',
    load: async () => {
      const { prepareResearch } = await import('../research/run-research.js');
      return ({ question, ...setup }) => {
        const task = prepareResearch({
          ...setup,
          topic: question,
          plan: options.plan,
          restore: options.restore,
        });
        return { events: task.events, execute: task.run };
      };
    },
  };
}
