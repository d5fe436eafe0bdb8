import type { ResearchEstimate, ResearchPlan } from './research-result.js';

// The run API's objects as they go over HTTP (snake_case), declared once: the server builds them
// (src/server/routes/runs/run-object.ts) and the web page reads them (src/web/api-client.ts).

export type RunStatus = 'queued' | 'running' | 'completed' | 'failed' | 'cancelled';

/** A failed run's error as it is stored and shown: the OpenAI error shape. */
export interface RunError {
  message: string;
  type: string;
  code: string | null;
}

/** What every run object says of its run. */
interface RunFields {
  id: string;
  object: 'run';
  status: RunStatus;
  mode: string;
  question: string;
  created_at: number;
}

/** A line of GET /v1/runs. */
export interface RunListItem extends RunFields {
  finished_at: number | null;
  answer_preview: string | null;
  total_tokens: number | null;
  evaluation: boolean;
}

/** A stored run (GET /v1/research/{id} and /v1/runs/{id}; what POST answers, without finished_at). */
export interface RunObject extends RunFields {
  finished_at?: number;
  options: Record<string, unknown>;
  result?: Record<string, unknown>;
  error?: RunError;
  usage?: { prompt_tokens: number; completion_tokens: number; total_tokens: number; cost_usd: number | null };
}

/** GET /v1/research/{id}: the run and what the page may do with it. */
export interface RunResource extends RunObject {
  /** Whether POST /v1/research/{id}/resume would go on with it now. */
  resumable: boolean;
  /** The formats GET /v1/research/{id}/report serves (a finished report; pdf where Chromium runs). */
  report_formats?: string[];
}

/** POST /v1/research/outline: the plan alone, to edit and send back as `outline`. */
export interface ResearchOutline {
  object: 'research.outline';
  question: string;
  plan: ResearchPlan;
  estimate: ResearchEstimate;
  /** The plan as markdown, for a reader. */
  markdown: string;
}
