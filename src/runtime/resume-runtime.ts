import { ConfigError, InputError } from '../errors/index.js';
import type { DeepSearchResult } from '../events/agent-types.js';
import { type ResumeTarget, resumedConfig, resumeTarget } from '../runs/resume-target.js';
import { askRuntime } from './ask-runtime.js';
import type { AskOptions, ResumeOptions } from './create-runtime.js';
import type { RuntimeProviders } from './runtime-providers.js';

/**
 * Goes on with a stored deep search run from its last checkpoint (same run id, events continue
 * its sequence); a research run is resumeResearch's.
 */
export async function resumeRuntime(
  runtime: RuntimeProviders,
  runId: string,
  resumeOptions: ResumeOptions,
): Promise<DeepSearchResult> {
  const target = findResumeTarget(runtime, runId, resumeOptions.owner);
  if (target.kind !== 'search')
    throw new InputError(`run ${runId} is research: resume it with resumeResearch()`, {
      code: 'run_not_resumable',
    });
  return askRuntime(
    runtime,
    target.record.question,
    resumedOptions(runtime, target, resumeOptions),
    target.restore,
  );
}

/** The stored run to go on with: it exists for this owner and can resume (resume-target.ts). */
export function findResumeTarget(
  runtime: RuntimeProviders,
  runId: string,
  owner: string | undefined,
): ResumeTarget {
  if (!runtime.runs)
    throw new ConfigError(
      'runs are not recorded (runs.enabled is off or runs.file unset): nothing to resume',
    );
  return resumeTarget({ store: runtime.runs, runId, owner });
}

/** A resumed run's options: its own settings (a raised budget given now), id and record. */
export function resumedOptions(
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
