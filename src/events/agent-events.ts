import type { LlmRole } from '../config/config-schema.js';
import type { CodeRunErrorKind } from '../providers/spec/code-runner.js';
import type { LlmCallRecord } from '../providers/spec/llm-client.js';
import type { UrlReasons } from '../retrieval/rank-urls.js';
import type { ActionName, BudgetReport, DeepSearchResult, UsageReport } from './deep-search-result.js';
import type { ResearchEventBody } from './research-events.js';

/**
 * A part's purpose, so observers can file its events (which carry the part's own run id) under
 * what it is for: a research section's hop, or the verification of a claim of a section.
 */
export interface PartLabel {
  purpose: 'section' | 'verification';
  /** The plan section ("s2") it researches or whose claim it checks. */
  section?: string;
  /** The section's hop (1, 2...), for purpose 'section'. */
  hop?: number;
}

/**
 * What the loop reports as it works. The CLI renders these as progress, the server as SSE
 * chunks, a run store records them; the loop knows none of them. Steps emit bodies; the run's
 * event bus adds the envelope.
 */
export type AgentEventBody =
  | {
      type: 'run-start';
      question: string;
      language: string | undefined;
      parentRunId?: string;
      /** What a part of a larger task is for (a research section's hop, a claim's verification). */
      part?: PartLabel;
    }
  | {
      type: 'step-start';
      step: number;
      question: string;
      allowed: ActionName[];
      promptTokens: number;
      final: boolean;
    }
  | { type: 'think-delta'; step: number; delta: string }
  | { type: 'action'; step: number; action: ActionName; think: string }
  | {
      /** How the agent's queries became the ones searched: repeats dropped, rewrites added. */
      type: 'search-plan';
      step: number;
      proposed: string[];
      duplicates: Array<{ query: string; of: string; similarity: number }>;
      rewritten: Array<{ query: string; timeRange?: string; language?: string }>;
      embedding: string;
    }
  | {
      /** The URLs offered to the agent this step, best first, with each weight's reasons. */
      type: 'url-ranking';
      step: number;
      question: string;
      reranker: string;
      candidates: number;
      urls: Array<{ url: string; weight: number; reasons: UrlReasons }>;
    }
  | { type: 'search-start'; step: number; queries: string[] }
  | {
      type: 'search-end';
      step: number;
      queries: string[];
      hits: number;
      newUrls: number;
      failures: Array<{ query: string; error: string }>;
    }
  | { type: 'read-start'; step: number; urls: string[] }
  | {
      type: 'read-end';
      step: number;
      url: string;
      ok: boolean;
      title?: string;
      chars?: number;
      /** The page loaded but showed only a teaser behind a paywall or login. */
      paywalled?: boolean;
      error?: string;
    }
  | { type: 'reflect'; step: number; questions: string[] }
  | {
      /** The coding action: the model's JavaScript and what came of running it in the sandbox. */
      type: 'coding';
      step: number;
      purpose: string;
      code: string;
      ok: boolean;
      /** The result (text as is, anything else as JSON), clipped, when ok. */
      output?: string;
      error?: { kind: CodeRunErrorKind; message: string };
      logs: string[];
      ms: number;
    }
  | { type: 'evaluation'; step: number; criterion: string; pass: boolean; reason: string }
  | { type: 'answer-rejected'; step: number; reason: string; improvement: string; attempts: number }
  | { type: 'retry'; step: number; role: LlmRole; attempt: number; delayMs: number; reason: string }
  /** One LLM request (a re-ask is another): what it cost, so a run store can price the run. */
  | ({ type: 'llm-call'; step: number } & LlmCallRecord)
  | {
      type: 'warning';
      step: number;
      /** In a person's words: what failed or was passed over, and what the run does instead. */
      message: string;
      /** The technical words behind it (a validator's field paths), shown with --debug. */
      detail?: string;
    }
  | { type: 'step-end'; step: number; action: ActionName | 'none'; usage: UsageReport; budget: BudgetReport }
  | {
      /** The answer's text as the model writes it, before its quotes are checked and it is judged. */
      type: 'answer-draft-delta';
      step: number;
      delta: string;
    }
  | {
      /** The draft so far is void: the reply was retried, or the answer was rejected. */
      type: 'answer-draft-reset';
      step: number;
      reason: string;
    }
  | { type: 'answer-delta'; delta: string }
  | { type: 'run-end'; result: DeepSearchResult }
  // Research mode's own events (a type-only import: research/ builds on agent/, not the reverse).
  | ResearchEventBody;

/** What every event carries: which run, its order within the run, and when (epoch ms). */
export interface EventEnvelope {
  runId: string;
  seq: number;
  at: number;
}

/** An event as observers receive it; plain data, JSON-serialisable. */
export type AgentEvent = AgentEventBody & EventEnvelope;
export type AgentEventType = AgentEvent['type'];
export type AgentEventListener = (event: AgentEvent) => void;
