import type { SkippedPage } from '../retrieval/skipped-page.js';
import type { Confidence, Reference, UsageReport } from './deep-search-result.js';

/**
 * How a required data point is found: ask the model and verify
 * its answer with a targeted search, an overview of the core entity then its attributes, or plain
 * web search.
 */
export type DataPointStrategy = 'ask-llm' | 'entity-overview' | 'web-search';

/** A fact the report cannot do without, with how it is to be found. */
export interface DataPoint {
  id: string;
  /** What is needed, e.g. "heat pump sales in Germany in 2019 (units)". */
  description: string;
  strategy: DataPointStrategy;
  /** The section it belongs to. */
  sectionId: string;
}

export interface PlanSection {
  /** Stable id ("s1", "s2"...), used by data points, events and coverage. */
  id: string;
  heading: string;
  /** What the section must answer; each goes through the deep-search loop. */
  questions: string[];
}

/** The research plan: the outline and the data points. A person may edit it (`--outline`). */
export interface ResearchPlan {
  topic: string;
  title: string;
  /** The language the report is written in (the topic's). */
  language: string | undefined;
  sections: PlanSection[];
  dataPoints: DataPoint[];
  /** Fact-centric topics: the entity the question is about and the attributes wanted. */
  coreEntity?: string;
  targetAttributes?: string[];
}

/** What the librarian found about one question or data point after a hop. */
export interface CoverageItem {
  /** A section question or a data point's description. */
  target: string;
  kind: 'question' | 'data-point';
  covered: boolean;
  /** Quotes or findings that cover it (empty when missing). */
  evidence: string[];
  /** For a proposed fact (ask-llm, entity-overview): did what was read confirm it? */
  verificationOutcome?: 'confirmed' | 'contradicted' | 'unverified';
  /** The value found, when a data point asks for one. */
  value?: string;
  /** Where each evidence quote was found: every quote is literally in the text read from `url`. */
  sources?: Array<{ url: string; quote: string }>;
  /** The fact proposed by the model (ask-llm) or read from the entity overview, to be verified. */
  proposedFact?: string;
  /** Why it is covered or what is missing, in the librarian's words. */
  note?: string;
}

export interface SectionCoverage {
  items: CoverageItem[];
  /** Share of items covered, 0..1. */
  ratio: number;
  hops: number;
  /** Coverage ratio after each hop. */
  history?: number[];
  /** The query temperature each hop's queries were generated with (hop 1: none generated). */
  temperatures?: number[];
  /** Why the section stopped: all covered, out of hops, out of budget, or cancelled. */
  stopped?: 'covered' | 'max-hops' | 'budget' | 'no-queries';
}

/** One deep-search run's answer gathered for a section. */
export interface Finding {
  question: string;
  /** Markdown with [^n] footnotes matching `references` (numbered within the finding). */
  answer: string;
  references: Reference[];
  confidence: Confidence;
  runId: string;
}

/** Everything gathered for a section, the writer's input. */
export interface SectionEvidence {
  section: PlanSection;
  findings: Finding[];
  coverage: SectionCoverage;
}

/** Sources disagreeing on a data point, each side with its evidence. */
export interface Contradiction {
  topic: string;
  sides: Array<{ claim: string; url: string; quote: string; trust?: number }>;
}

export interface ResearchEvidence {
  plan: ResearchPlan;
  sections: SectionEvidence[];
  contradictions: Contradiction[];
}

export interface ReportSection {
  id: string;
  heading: string;
  /** Markdown whose [^n] footnotes index the report's `references`. */
  markdown: string;
  questions: string[];
  coverage: number;
}

export interface FactCheckReport {
  claims: number;
  supported: number;
  revised: number;
  removed: number;
}

/** The finished report (`deepsearch research --json` prints it). */
export interface ResearchReport {
  runId: string;
  topic: string;
  title: string;
  summary: string;
  /** The whole report as markdown: title, summary, sections, contradictions, follow-ups, footnotes. */
  markdown: string;
  sections: ReportSection[];
  /** Every quote was found in text read from its URL in this task. */
  references: Reference[];
  followUps: string[];
  plan: ResearchPlan;
  factCheck: FactCheckReport;
  contradictions: Contradiction[];
  usage: UsageReport;
  durationMs: number;
  budget: { maxTokens: number; tokensUsed: number; maxTimeMs: number; elapsedMs: number; stepsUsed: number };
  /** Pages the task chose but could not read, with why (absent in reports stored before it existed). */
  skipped?: SkippedPage[];
  warnings: string[];
}

/** Seed 004's personas: who is speaking in a progress line. */
export type Persona = 'strategist' | 'search' | 'librarian' | 'analyst' | 'synthesizer';

/** What a plan is likely to cost (research/plan/estimate-research.ts makes it). */
export interface ResearchEstimate {
  tokens: number;
  timeMs: number;
  llmCalls: number;
  /** Steps of the sections' deep searches (absent in older checkpoints). */
  steps?: number;
  /** The budget beside it, so the estimate is not mistaken for it (absent in older checkpoints). */
  budgetTokens?: number;
  budgetMs?: number;
  /** The research phase's steps (absent in older checkpoints). */
  budgetSteps?: number;
  /** A resumed task's estimate: the sections it has left (all of them when absent). */
  sections?: number;
}
