import { doneWithout } from '../../agent/steps/step-errors.js';
import { isAbortError } from '../../core/errors/index.js';
import { createSemaphore } from '../../core/semaphore.js';
import type { Reference } from '../../events/deep-search-result.js';
import type {
  Contradiction,
  FactCheckReport,
  ReportSection,
  ResearchEvidence,
  SectionEvidence,
} from '../../events/research-result.js';
import { countIndependentSources } from '../../retrieval/page-groups.js';
import type { ResearchContext } from '../research-context.js';
import { coherencePass } from './coherence-pass.js';
import { createFactCheckCycle, factCheck } from './fact-check.js';
import { finalReview } from './final-review.js';
import { findContradictions } from './find-contradictions.js';
import { suggestFollowUps } from './follow-ups.js';
import { ReportReferences } from './merge-references.js';
import { pruneReferences } from './prune-references.js';
import type { TrustOf } from './source-trust.js';
import { writeSection } from './write-section.js';

/** What the writer hands back; run-research.ts adds usage, budget and timing. */
export interface WrittenReport {
  /** The report's language (the topic's), for the headings the renderers add. */
  language: string | undefined;
  title: string;
  summary: string;
  sections: ReportSection[];
  references: ReportReferences['list'];
  followUps: string[];
  factCheck: FactCheckReport;
  contradictions: Contradiction[];
}

/** The report once its sections are written and made coherent, before the fact-check. */
export interface DraftedReport {
  summary: string;
  sections: ReportSection[];
  /** The report's references so far; the sections' footnotes index them. */
  references: Reference[];
  contradictions: Contradiction[];
}

export interface WriteOptions {
  /** A host's trust from domain profiles; the offline URL heuristic when undefined. */
  trustOf?: TrustOf;
  /** A draft from a checkpoint: its writing and coherence calls are not made again. */
  drafted?: DraftedReport;
  /** Called with the draft before the fact-check starts (a checkpoint, awaited). */
  onDrafted?: (drafted: DraftedReport) => void | Promise<void>;
}

/**
 * Writes the report from the evidence (the Synthesizer persona): sections in parallel, each from
 * its own evidence with the same evidence share; a coherence pass with the summary; a
 * fact-check that verifies, revises or removes unsupported claims; one review that may send
 * sections back; contradictions between sources; follow-up questions. Every footnote indexes a
 * quote verified against the page it came from.
 */
export async function writeReport(
  research: ResearchContext,
  evidence: ResearchEvidence,
  options: WriteOptions = {},
): Promise<WrittenReport> {
  const { plan } = evidence;
  const references = new ReportReferences();
  let drafted = options.drafted;
  if (drafted) {
    // The same list in the same order: every footnote of the draft keeps its number.
    for (const reference of drafted.references) references.add(reference);
    research.say('synthesizer', 'the draft was written before the interruption: checking it');
  } else {
    drafted = await draftReport(research, evidence, references, options.trustOf);
    await options.onDrafted?.(drafted);
  }
  const summary: ReportSection = {
    id: 'summary',
    heading: 'Summary',
    markdown: drafted.summary,
    questions: [],
    coverage: 1,
  };
  const { sections } = drafted;
  const all = summary.markdown ? [summary, ...sections] : sections;
  const cycle = createFactCheckCycle();
  await orFallback(research, 'the fact-check', factCheck(research, all, references, cycle), undefined);
  const revised = await orFallback(
    research,
    'the final review',
    finalReview(research, { title: plan.title, summary: summary.markdown, sections, references }),
    [],
  );
  if (revised.length > 0) {
    const again = sections.filter((section) => revised.includes(section.id));
    await orFallback(
      research,
      'the fact-check of the revision',
      factCheck(research, again, references, cycle),
      undefined,
    );
  }
  research.task.emit({ type: 'fact-check', ...cycle.report });
  const missing = evidence.sections.flatMap((section) =>
    section.coverage.items.filter((item) => !item.covered).map((item) => item.target),
  );
  const followUps = await orFallback(
    research,
    'follow-up questions',
    suggestFollowUps(
      research,
      plan.title,
      summary.markdown || sections.map((section) => section.heading).join('\n'),
      missing,
    ),
    [],
  );
  const pruned = pruneReferences(
    [summary.markdown, ...sections.map((section) => section.markdown)],
    references.list,
  );
  const [finalSummary, ...bodies] = pruned.texts;
  return {
    language: plan.language,
    title: plan.title,
    summary: finalSummary ?? '',
    sections: sections.map((section, at) => ({ ...section, markdown: bodies[at] ?? '' })),
    references: pruned.references,
    followUps,
    factCheck: cycle.report,
    contradictions: drafted.contradictions,
  };
}

/** Every section written from its evidence, then the coherence pass; the sources compared meanwhile. */
async function draftReport(
  research: ResearchContext,
  evidence: ResearchEvidence,
  references: ReportReferences,
  trustOf: TrustOf | undefined,
): Promise<DraftedReport> {
  const { plan } = evidence;
  research.say(
    'synthesizer',
    evidence.sections.length === 1
      ? 'writing the section from its evidence'
      : `writing ${evidence.sections.length} sections in parallel, each from its own evidence`,
  );
  // As many writing calls at once as research runs sections (research.concurrency).
  const slots = createSemaphore({ max: research.task.config.research.concurrency });
  const contradictions = orFallback(
    research,
    'comparing sources',
    slots.run(() => findContradictions(research, evidence, trustOf)),
    evidence.contradictions,
  );
  // Awaited only after the drafts and the coherence pass: when those fail first (a cancel), its own
  // rejection must not go unhandled (that ends the process), so it is marked handled here.
  contradictions.catch(() => undefined);
  const drafts = await Promise.all(
    evidence.sections.map((section) =>
      orFallback(
        research,
        `writing "${section.section.heading}"`,
        slots.run(() => writeSection(research, section, dataPointsOf(evidence, section))),
        naiveDraft(section),
      ).then((draft) => {
        // Copies of one story are one source.
        const sources = countIndependentSources(
          draft.references.map((reference) => reference.url),
          research.task.state.pages.grouping(),
        );
        research.task.emit({
          type: 'research-section',
          section: section.section.id,
          state: 'written',
          sources,
        });
        return draft;
      }),
    ),
  );
  const draftSections: ReportSection[] = evidence.sections.map(({ section, coverage }, at) => ({
    id: section.id,
    heading: section.heading,
    markdown: references.adopt(drafts[at]!.markdown, drafts[at]!.references),
    questions: section.questions,
    coverage: coverage.ratio,
  }));
  research.say('synthesizer', 'coherence pass over the whole draft: terms, repetition, transitions, summary');
  const coherent = await orFallback(
    research,
    'the coherence pass',
    coherencePass(research, { title: plan.title, sections: draftSections, references: references.list }),
    { summary: '', sections: draftSections },
  );
  return {
    summary: coherent.summary,
    sections: coherent.sections,
    references: [...references.list],
    contradictions: await contradictions,
  };
}

function dataPointsOf(evidence: ResearchEvidence, section: SectionEvidence): string[] {
  return evidence.plan.dataPoints
    .filter((point) => point.sectionId === section.section.id)
    .map((point) => point.description);
}

/** The section's findings as they are: what the report shows when its writing call fails. */
function naiveDraft(section: SectionEvidence) {
  const local = new ReportReferences();
  const markdown = section.findings
    .map((finding) => local.adopt(finding.answer, finding.references))
    .join('\n\n');
  return { markdown, references: local.list };
}

/**
 * A writing stage that fails (the model is down, the budget ran out) costs its improvement, not
 * the report: the research already paid for is still delivered, with a warning. Cancellation is
 * not a failure.
 */
async function orFallback<T>(
  research: ResearchContext,
  stage: string,
  work: Promise<T>,
  fallback: T,
): Promise<T> {
  try {
    return await work;
  } catch (error) {
    if (isAbortError(error) || research.input.signal?.aborted) throw error;
    research.task.emit({
      type: 'warning',
      step: 0,
      ...doneWithout({ what: stage, instead: 'the draft stays as it was', error }),
    });
    return fallback;
  }
}
