import type { Budget } from '../../agent/budget.js';
import type { RunContext } from '../../agent/run-context.js';
import type { StoredPage } from '../../agent/state/page-store.js';
import type {
  CoverageItem,
  Finding,
  PlanSection,
  ResearchPlan,
  SectionEvidence,
} from '../../events/research-result.js';
import type { ProposedFact } from '../plan/probe-data-points.js';
import type { ResearchContext } from '../research-context.js';
import { advisoryCall } from './advisory-call.js';
import { type BudgetShares, describeShortage } from './budget-shares.js';
import type { HopSlots } from './hop-slots.js';
import { librarianCheck } from './librarian-check.js';
import { measureDiversity } from './measure-diversity.js';
import { nextHopQueries } from './next-hop-queries.js';
import { StagnationControl } from './stagnation-control.js';

/** Questions a hop's deep search queues at most: more would leave each too little budget. */
const maxQuestionsPerHop = 8;

/** What every section of the research phase shares. */
export interface GatherRun {
  research: ResearchContext;
  plan: ResearchPlan;
  /** The task's context with the research phase's budget and signal. */
  context: RunContext;
  pool: Budget;
  shares: BudgetShares;
  slots: HopSlots;
  /** Cancels every section (the caller's cancel, or another section failing). */
  signal: AbortSignal;
  facts: ProposedFact[];
}

/**
 * One section's hops: a deep search of its questions, then the librarian's check of
 * what the text read so far covers; while items are missing and hops and budget remain, the next
 * hop searches questions generated for the gaps, at the temperature the stagnation control sets.
 */
export async function researchSection(run: GatherRun, section: PlanSection): Promise<SectionEvidence> {
  const { research, plan, context, shares, slots } = run;
  const config = context.config.research;
  const pages = context.state.pages;
  let items = initialItems(run, section);
  let questions = firstQuestions(run, section);
  const asked = [...questions];
  const control = new StagnationControl(config);
  const findings: Finding[] = [];
  const history: number[] = [];
  const temperatures: number[] = [];
  let stopped: SectionEvidence['coverage']['stopped'] = 'max-hops';
  let hop = 0;
  try {
    while (hop < config.maxHops) {
      const release = await slots.acquire(hop + 1, run.signal);
      try {
        const share = shares.take(section.id);
        if (!('limits' in share)) {
          stopped = 'budget';
          research.say(
            'search',
            `stopping "${section.heading}" before hop ${hop + 1}: ${describeShortage(share)}`,
            section.id,
          );
          break;
        }
        const { limits } = share;
        hop++;
        context.emit({ type: 'research-hop', section: section.id, hop, questions, limits });
        research.say(
          'search',
          hop === 1
            ? `hop 1: searching ${questions.length} question(s) of "${section.heading}"`
            : `hop ${hop}: searching ${questions.length} new question(s) aimed at what is still missing`,
          section.id,
        );
        const before = new Set(pages.all());
        const question = hopQuestion(plan, section, hop, items);
        const result = await research.runPart(question, {
          subQuestions: questions.slice(0, maxQuestionsPerHop),
          limits,
          budget: run.pool,
          signal: run.signal,
          part: { purpose: 'section', section: section.id, hop },
        });
        const finding: Finding = {
          question,
          answer: result.answer,
          references: result.references,
          confidence: result.confidence,
          runId: result.runId,
        };
        findings.push(finding);
        const fresh = pages.all().filter((page) => !before.has(page));
        const diversity = await measureDiversity(
          context.embedding,
          fresh.flatMap((page) => pages.chunksOf(page).map((chunk) => chunk.text)),
          [...before].flatMap((page) => pages.chunksOf(page).map((chunk) => chunk.text)),
          context.signal,
        );
        const open = items.filter((item) => !item.covered);
        const judged = await advisoryCall(
          context,
          { what: "the librarian's check", instead: 'the open items stay open after this hop' },
          () => librarianCheck(context, { section, items: open, findings, pages: pages.all() }),
        );
        if (judged) items = items.map((item) => judged[open.indexOf(item)] ?? item);
        const ratio = coverageRatio(items);
        history.push(ratio);
        reportCoverage(run, section, hop, items, judged ?? [], fresh);
        if (items.every((item) => item.covered)) {
          stopped = 'covered';
          break;
        }
        if (hop >= config.maxHops) break;
        const decision = control.assess({ ratio, diversity: diversity.value });
        const missing = items.filter((item) => !item.covered);
        const next = await advisoryCall(
          context,
          { what: 'writing the next search questions', instead: 'the section stops here' },
          () =>
            nextHopQueries(context, {
              topic: plan.topic,
              section,
              missing,
              asked,
              perGap: config.queriesPerGap,
              temperature: control.temperature,
              pivot: decision.decision === 'pivot',
            }),
        );
        temperatures.push(control.temperature);
        context.emit({
          type: 'stagnation',
          section: section.id,
          hop,
          diversity: decision.diversity,
          progress: Math.round(decision.progress * 1000) / 1000,
          temperature: decision.temperature,
          decision: decision.decision,
          ...(next?.pivot ? { pivot: next.pivot } : {}),
        });
        if (decision.decision !== 'hold') {
          research.say('strategist', strategistLine(decision, next?.pivot), section.id);
        }
        if (!next?.questions.length) {
          stopped = 'no-queries';
          break;
        }
        questions = next.questions;
        asked.push(...questions);
      } finally {
        release();
      }
    }
  } finally {
    shares.finish(section.id);
  }
  return {
    section,
    findings,
    coverage: { items, ratio: coverageRatio(items), hops: hop, history, temperatures, stopped },
  };
}

/** The section's questions and its data points, each with the fact proposed for it if any. */
function initialItems(run: GatherRun, section: PlanSection): CoverageItem[] {
  const questions: CoverageItem[] = section.questions.map((target) => ({
    target,
    kind: 'question',
    covered: false,
    evidence: [],
  }));
  const points = run.plan.dataPoints
    .filter((point) => point.sectionId === section.id)
    .map((point): CoverageItem => {
      const fact = run.facts.find((item) => item.dataPoint.id === point.id);
      return {
        target: point.description,
        kind: 'data-point',
        covered: false,
        evidence: [],
        ...(fact ? { proposedFact: fact.fact, verificationOutcome: 'unverified' as const } : {}),
      };
    });
  return [...questions, ...points];
}

/** Hop 1: the section's questions, then each data point's verification query or description. */
function firstQuestions(run: GatherRun, section: PlanSection): string[] {
  const points = run.plan.dataPoints
    .filter((point) => point.sectionId === section.id)
    .map(
      (point) =>
        run.facts.find((item) => item.dataPoint.id === point.id)?.verificationQuery ?? point.description,
    );
  return [...new Set([...section.questions, ...points])];
}

function hopQuestion(plan: ResearchPlan, section: PlanSection, hop: number, items: CoverageItem[]): string {
  const base = `${section.heading} (${plan.topic})`;
  if (hop === 1) return base;
  const missing = items.filter((item) => !item.covered).map((item) => item.target);
  return `${base}: ${missing.join('; ')}`.slice(0, 400);
}

function coverageRatio(items: CoverageItem[]): number {
  if (items.length === 0) return 1;
  return Math.round((items.filter((item) => item.covered).length / items.length) * 1000) / 1000;
}

function reportCoverage(
  run: GatherRun,
  section: PlanSection,
  hop: number,
  items: CoverageItem[],
  judged: CoverageItem[],
  pages: StoredPage[],
): void {
  const covered = items.filter((item) => item.covered).map((item) => item.target);
  const missing = items.filter((item) => !item.covered).map((item) => item.target);
  const ratio = coverageRatio(items);
  const evidence = items.flatMap((item) =>
    (item.sources ?? []).map((source) => ({ target: item.target, url: source.url, quote: source.quote })),
  );
  run.context.emit({ type: 'coverage', section: section.id, hop, ratio, covered, missing, evidence });
  // Local documents are read by the Document Analyst; web pages by the Librarian.
  const persona =
    pages.length > 0 && pages.every((page) => /^(kb|file):/.test(page.url)) ? 'analyst' : 'librarian';
  const why = missing.length
    ? `; missing: ${missing.map((target) => `"${clip(target)}"`).join(', ')}${noteOf(judged, missing[0]!)}`
    : ': every question and data point is backed by a quote from what was read';
  run.research.say(
    persona,
    `after hop ${hop}: ${covered.length} of ${items.length} covered (${Math.round(ratio * 100)}%)${why}`,
    section.id,
  );
  for (const item of judged) {
    if (!item.proposedFact || item.verificationOutcome === 'unverified') continue;
    run.research.say(
      persona,
      `the proposed "${clip(item.proposedFact)}" for "${clip(item.target)}" was ${item.verificationOutcome} by ${item.sources?.[0]?.url ?? 'what was read'}`,
      section.id,
    );
  }
}

function noteOf(judged: CoverageItem[], target: string): string {
  const note = judged.find((item) => item.target === target)?.note;
  return note ? ` (${clip(note, 120)})` : '';
}

function strategistLine(
  decision: { decision: string; temperature: number; reason: string },
  pivot: string | undefined,
): string {
  if (decision.decision === 'raise')
    return `raising the query temperature to ${decision.temperature}: ${decision.reason}`;
  if (decision.decision === 'reset')
    return `query temperature back to ${decision.temperature}: ${decision.reason}`;
  return `changing course: ${decision.reason}${pivot ? `; new angle: ${clip(pivot, 200)}` : ''}`;
}

function clip(text: string, max = 80): string {
  return text.length <= max ? text : `${text.slice(0, max - 1)}…`;
}
