import type {
  DataPointStrategy,
  FactCheckReport,
  Persona,
  ResearchEstimate,
  ResearchPlan,
  ResearchReport,
  SectionCoverage,
} from './research-result.js';

/**
 * What research mode reports besides the deep-search events of its sections (which arrive with
 * their own run ids). Part of AgentEventBody, so every observer (CLI, server, run store) gets them.
 */
export type ResearchEventBody =
  | {
      /** A progress line by persona: who is doing what, and why. */
      type: 'persona';
      persona: Persona;
      message: string;
      /** The plan section it is about, if any. */
      section?: string;
    }
  | {
      type: 'research-plan';
      plan: ResearchPlan;
      /** Estimated from the plan before any research starts, with the budget beside it. */
      estimate: ResearchEstimate;
    }
  | {
      /** The librarian's judgement after a hop of a section. */
      type: 'coverage';
      section: string;
      hop: number;
      ratio: number;
      covered: string[];
      missing: string[];
      /** The quotes that cover each covered item, each found literally in the text read from its URL. */
      evidence?: Array<{ target: string; url: string; quote: string }>;
    }
  | {
      /** A stagnation/diversity decision on query generation (raise the temperature when hops stop finding anything new). */
      type: 'stagnation';
      section: string;
      hop: number;
      diversity: number;
      progress: number;
      temperature: number;
      decision: 'hold' | 'raise' | 'reset' | 'pivot';
      pivot?: string;
    }
  | ({ type: 'fact-check' } & FactCheckReport)
  | {
      /** A hop of a section starts: the questions it searches and the budget share it got. */
      type: 'research-hop';
      section: string;
      hop: number;
      questions: string[];
      limits: { maxTokens: number; maxSteps: number; maxTimeMs: number };
    }
  | {
      /** A data point's proposed fact (ask-llm, entity-overview) and the query that will verify it. */
      type: 'data-point';
      dataPoint: string;
      strategy: DataPointStrategy;
      proposedFact: string;
      verificationQuery: string;
    }
  | {
      /**
       * A section moved on: its research is over (`gathered`, with its coverage) or its draft is
       * written (`written`, with the sources it cites). Hops and coverage come before as their own events.
       */
      type: 'research-section';
      section: string;
      state: 'gathered' | 'written';
      /** Items (questions and data points) covered by quotes, of `total`; with `gathered`. */
      covered?: number;
      total?: number;
      hops?: number;
      stopped?: SectionCoverage['stopped'];
      /** Distinct pages the section's quotes (gathered) or footnotes (written) come from. */
      sources?: number;
    }
  | { type: 'research-end'; report: ResearchReport };
