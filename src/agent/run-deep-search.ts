import type { DeepSearchConfig } from '../config/config-schema.js';
import { InputError, isAbortError, throwIfAborted } from '../errors/index.js';
import type { EmbeddingProvider } from '../providers/spec/embedding-provider.js';
import type { LlmClient } from '../providers/spec/llm-client.js';
import type { PageReader } from '../providers/spec/page-reader.js';
import type { Reranker } from '../providers/spec/reranker.js';
import type { SearchProvider } from '../providers/spec/search-provider.js';
import { HostHealth } from '../retrieval/host-health.js';
import { createLexicalEmbedding } from '../retrieval/lexical-embedding.js';
import { createLexicalReranker } from '../retrieval/lexical-reranker.js';
import { findSourceUrls } from '../retrieval/normalize-url.js';
import type { AgentEvent, AgentEventListener } from './agent-events.js';
import type { DeepSearchResult } from './agent-types.js';
import { Budget } from './budget.js';
import type { EvaluationCriterion } from './evaluation/criteria.js';
import { chooseCriteria } from './evaluation/evaluate-answer.js';
import { detectLanguage } from './language.js';
import type { RunContext } from './run-context.js';
import { runStep } from './run-step.js';
import { AgentState } from './state/agent-state.js';
import type { FinalAnswer } from './steps/final-answer.js';
import { runFinalAnswerStep } from './steps/final-answer-step.js';

export interface DeepSearchInput {
  question: string;
  config: DeepSearchConfig;
  llm: LlmClient;
  search: SearchProvider;
  reader: PageReader;
  /** Default: the built-in lexical embedding. */
  embedding?: EmbeddingProvider;
  /** Default: the built-in BM25 reranker. */
  reranker?: Reranker;
  /** Hosts that failed before; default: a fresh record for this run. */
  hostHealth?: HostHealth;
  /** Cancels the run; it stops within a second. */
  signal?: AbortSignal;
  onEvent?: AgentEventListener;
  /** Earlier turns of a conversation, given to the agent as chat-history knowledge. */
  history?: ReadonlyArray<{ question: string; answer: string }>;
  now?: () => Date;
}

/**
 * The deep search loop: steps until an answer passes evaluation or a budget runs out, then a
 * forced final answer. Always returns an answer (with its confidence) unless cancelled or a
 * provider rejects its key.
 */
export async function runDeepSearch(input: DeepSearchInput): Promise<DeepSearchResult> {
  const question = input.question.trim();
  if (!question) throw new InputError('the question is empty', { param: 'question' });
  throwIfAborted(input.signal);
  const budget = new Budget({ config: input.config.budget });
  const state = new AgentState(question);
  // URLs written in the question are read first: the user pointed at them.
  for (const url of findSourceUrls(question)) {
    state.urls.add({
      url,
      title: '(given in the question)',
      source: 'question',
      step: 0,
    });
  }
  for (const turn of input.history ?? []) {
    state.knowledge.push({
      type: 'chat-history',
      question: turn.question,
      answer: turn.answer,
      urls: [],
      step: 0,
    });
  }
  const emit = (event: AgentEvent) => input.onEvent?.(event);
  const context: RunContext = {
    config: input.config,
    llm: input.llm,
    search: input.search,
    reader: input.reader,
    embedding: input.embedding ?? createLexicalEmbedding(),
    reranker: input.reranker ?? createLexicalReranker(),
    hostHealth: input.hostHealth ?? new HostHealth(),
    state,
    budget,
    emit,
    cancelSignal: input.signal,
    signal: combine(input.signal, budget.regularSignal),
    finalSignal: combine(input.signal, budget.hardSignal),
    today: (input.now?.() ?? new Date()).toISOString().slice(0, 10),
    language: detectLanguage(question, input.config.agent.language),
    step: 0,
  };
  emit({ type: 'run-start', question, language: context.language.name });
  try {
    const final = await loop(context);
    for (const delta of chunkAnswer(final.answer)) emit({ type: 'answer-delta', delta });
    const result: DeepSearchResult = {
      question,
      ...final,
      usage: budget.usage(),
      steps: budget.steps,
      durationMs: budget.elapsedMs,
      timing: budget.timing(),
      budget: budget.report(),
      visitedUrls: state.pages.all().map((page) => page.url),
    };
    emit({ type: 'run-end', result });
    return result;
  } finally {
    budget.dispose();
  }
}

async function loop(context: RunContext): Promise<FinalAnswer> {
  const { budget } = context;
  let criteria: Promise<EvaluationCriterion[]> | undefined;
  const criteriaOnce = () => {
    criteria ??= chooseCriteria(context, context.state.question);
    return criteria;
  };
  while (true) {
    throwIfAborted(context.cancelSignal);
    if (budget.stopReason()) break;
    budget.steps++;
    context.step = budget.steps;
    try {
      const final = await runStep(context, criteriaOnce);
      if (final) return final;
    } catch (error) {
      // Regular steps ran out of time mid-call: go on to the final answer.
      if (!isAbortError(error) || context.cancelSignal?.aborted || !budget.regularSignal.aborted) throw error;
      budget.exhausted = 'time';
      break;
    }
  }
  throwIfAborted(context.cancelSignal);
  budget.steps++;
  context.step = budget.steps;
  return runFinalAnswerStep(context, budget.exhausted ?? 'steps');
}

function combine(signal: AbortSignal | undefined, deadline: AbortSignal): AbortSignal {
  return signal ? AbortSignal.any([signal, deadline]) : deadline;
}

/** Splits the answer into word-boundary pieces for streaming consumers. */
function chunkAnswer(answer: string): string[] {
  return answer.match(/[\s\S]{1,80}(?:\s|$)|[\s\S]{1,80}/g) ?? [];
}
