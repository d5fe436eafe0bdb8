import { randomUUID } from 'node:crypto';
import { InputError } from '../errors/index.js';
import type { ResearchReport } from '../events/research-types.js';
import { isResearchRestore, type ResearchRestore } from '../research/research-checkpoint.js';
import { startRecording } from '../runs/run-recording.js';
import type { ResearchOptions, ResumeOptions } from './create-runtime.js';
import { fitRun } from './fit-run.js';
import { findResumeTarget, resumedOptions } from './resume-runtime.js';
import type { RuntimeProviders } from './runtime-providers.js';

/**
 * Research mode on the runtime's providers: fitted to the model's window, recorded in the run
 * store (mode `research`), its cited hosts' trust saved after it. `restore` goes on from a
 * stored checkpoint.
 */
export async function researchRuntime(
  runtime: RuntimeProviders,
  topic: string,
  researchOptions: ResearchOptions,
  restore?: ResearchRestore,
): Promise<ResearchReport> {
  const { runs, redact, trust } = runtime;
  const [{ runResearch }, fitted] = await Promise.all([
    import('../research/run-research.js'),
    fitRun(runtime, topic, researchOptions),
  ]);
  const runConfig = fitted.config;
  const runId = researchOptions.runId ?? randomUUID();
  const notices = fitted.warning ? [fitted.warning] : [];
  const recording =
    runs && researchOptions.record !== false
      ? startRecording({
          store: runs,
          runId,
          question: topic,
          config: runConfig,
          redact,
          record: { mode: 'research', ...researchOptions.record },
          warn: (message) => notices.push(message),
        })
      : undefined;
  const health = trust.hostHealth();
  let cited: ResearchReport['references'] | undefined;
  try {
    const report = await runResearch({
      topic,
      plan: researchOptions.plan,
      restore,
      onCheckpoint: recording?.checkpoint,
      ...runtime.parts,
      hostHealth: health,
      config: runConfig,
      search: runtime.runSearch(runConfig),
      signal: researchOptions.signal,
      // The sections' events come with their own run ids, in the task bus's one sequence (its
      // forward), which a resumed task takes up from the last stored event.
      // The recorder before the caller's observers: what a client is shown is already being stored.
      observers: [...(recording ? [recording.observe] : []), ...(researchOptions.observers ?? [])],
      onEvent: researchOptions.onEvent,
      notices,
      runId,
    });
    cited = report.references;
    recording?.settle({ result: report });
    return report;
  } catch (error) {
    recording?.settle({ error });
    throw error;
  } finally {
    trust.settle(health, cited, () => {});
  }
}

/**
 * Goes on with a stored research run from its last checkpoint: its plan (no planning call), the
 * sections already gathered, its shared knowledge and budget; then the rest and the report.
 */
export async function resumeResearchRuntime(
  runtime: RuntimeProviders,
  runId: string,
  resumeOptions: ResumeOptions,
): Promise<ResearchReport> {
  const target = findResumeTarget(runtime, runId, resumeOptions.owner);
  if (target.kind !== 'research' || !isResearchRestore(target.restore))
    throw new InputError(`run ${runId} is not research: resume it with resume()`, {
      code: 'run_not_resumable',
    });
  return researchRuntime(
    runtime,
    target.record.question,
    resumedOptions(runtime, target, resumeOptions),
    target.restore,
  );
}
