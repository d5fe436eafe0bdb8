import { ConfigError, InputError } from '../errors/index.js';
import { isResearchRestore } from '../research/research-checkpoint.js';
import { type ResumeTarget, resumedConfig, resumeTarget } from '../runs/resume-target.js';
import type { AskOptions, ResumeOptions, RunOutcome, RunRequest } from './create-runtime.js';
import { recordedRun } from './recorded-run.js';
import { researchMode, searchMode } from './run-modes.js';
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
