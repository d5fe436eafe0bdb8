import {
  type CheckpointHook,
  checkpointSchemaVersion,
  type RunRestore,
  type StoredCheckpoint,
  type StoredRestore,
} from '../agent/run-checkpoint.js';
import type { RunContext } from '../agent/run-context.js';
import type { ResearchEstimate, ResearchPlan, SectionEvidence } from '../events/research-result.js';
import type { ProposedFact } from './plan/probe-data-points.js';
import type { DraftedReport, WrittenReport } from './write/write-report.js';

export type { ResearchEstimate };

/**
 * A research task's progress at a phase boundary, as plain JSON: the plan, each section's
 * evidence once gathered, the written report once written, with the task's shared knowledge and
 * budget at that moment. Enough to go on in another process without repeating a finished phase's
 * LLM calls; a section cut mid-way is researched again from its start.
 */
export interface ResearchCheckpoint extends StoredCheckpoint {
  $schemaVersion: typeof checkpointSchemaVersion;
  kind: 'research';
  /** Sections whose evidence is gathered (the run store shows it as the checkpoint's step). */
  step: number;
  plan: ResearchPlan;
  estimate: ResearchEstimate;
  /** The data points' proposed facts, once probed (an LLM call not to make again). */
  facts?: ProposedFact[];
  /** The evidence of each section gathered so far, in the order they finished. */
  sections: SectionEvidence[];
  /** The sections written and made coherent (with the sources compared): the fact-check is next. */
  drafted?: DraftedReport;
  /** The report as written, fact-checked and reviewed: only its assembly is left. */
  written?: WrittenReport;
}

export type ResearchRestore = StoredRestore<ResearchCheckpoint>;

export function isResearchRestore(restore: StoredRestore): restore is ResearchRestore {
  return restore.checkpoint.kind === 'research';
}

/** The research task's own run context goes on from the checkpoint's knowledge and budget. */
export function taskRestore(restore: ResearchRestore): RunRestore {
  const { state, budget } = restore.checkpoint;
  return {
    checkpoint: { $schemaVersion: checkpointSchemaVersion, step: 0, state, budget },
    lastSeq: restore.lastSeq,
  };
}

/** What a checkpoint holds of the task's own progress (the rest is the state and budget of the moment). */
type ProgressData = Pick<
  ResearchCheckpoint,
  'plan' | 'estimate' | 'facts' | 'sections' | 'drafted' | 'written'
>;

/**
 * What the research task has done so far (restored from a checkpoint or not), and the writer of
 * its checkpoints: each phase's end saves the whole progress with the shared knowledge and the
 * budget as they are then. Each method settles once its checkpoint is stored: the task awaits it
 * before the next phase starts.
 */
export class ResearchProgress {
  private saved: ProgressData | undefined;
  private readonly task: RunContext;
  private readonly onCheckpoint: CheckpointHook<ResearchCheckpoint> | undefined;

  constructor(options: {
    task: RunContext;
    onCheckpoint?: CheckpointHook<ResearchCheckpoint>;
    restored?: ResearchCheckpoint;
  }) {
    this.task = options.task;
    this.onCheckpoint = options.onCheckpoint;
    if (options.restored) {
      const { plan, estimate, facts, sections, drafted, written } = options.restored;
      this.saved = { plan, estimate, facts, sections: [...sections], drafted, written };
    }
  }

  /** The plan and estimate of a resumed task (no planning call). */
  get planned(): { plan: ResearchPlan; estimate: ResearchEstimate } | undefined {
    return this.saved && { plan: this.saved.plan, estimate: this.saved.estimate };
  }

  get facts(): ProposedFact[] | undefined {
    return this.saved?.facts;
  }

  get draft(): DraftedReport | undefined {
    return this.saved?.drafted;
  }

  get written(): WrittenReport | undefined {
    return this.saved?.written;
  }

  /** The evidence of a section already gathered, if it is. */
  section(id: string): SectionEvidence | undefined {
    return this.saved?.sections.find((evidence) => evidence.section.id === id);
  }

  get gatheredCount(): number {
    return this.saved?.sections.length ?? 0;
  }

  plan(plan: ResearchPlan, estimate: ResearchEstimate): Promise<void> {
    this.saved = { plan, estimate, sections: [] };
    return this.save();
  }

  probed(facts: ProposedFact[]): Promise<void> {
    return this.update({ facts });
  }

  gathered(evidence: SectionEvidence): Promise<void> {
    return this.update({ sections: [...this.current().sections, evidence] });
  }

  drafted(drafted: DraftedReport): Promise<void> {
    return this.update({ drafted });
  }

  /** The draft is not needed any more: only the report's assembly is left. */
  wrote(written: WrittenReport): Promise<void> {
    return this.update({ drafted: undefined, written });
  }

  private current() {
    if (!this.saved) throw new Error('research progress before a plan');
    return this.saved;
  }

  /** The progress changes at once (sections finishing together each add theirs); its save is awaited. */
  private update(change: Partial<ProgressData>): Promise<void> {
    this.saved = { ...this.current(), ...change };
    return this.save();
  }

  /** A store that cannot be written costs the resume, not the report: a warning, and the task goes on. */
  private async save(): Promise<void> {
    if (!this.onCheckpoint) return;
    const saved = this.current();
    try {
      await this.onCheckpoint({
        $schemaVersion: checkpointSchemaVersion,
        kind: 'research',
        step: saved.sections.length,
        ...saved,
        state: this.task.state.toJSON(),
        budget: this.task.budget.snapshot(),
      });
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      this.task.emit({
        type: 'warning',
        step: 0,
        message: `the research checkpoint was not saved: ${message}`,
      });
    }
  }
}
