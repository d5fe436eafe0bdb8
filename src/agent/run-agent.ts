import type { DeepSearchConfig } from '../config/config-schema.js';
import { InputError, throwIfAborted } from '../core/errors/index.js';
import { anySignal } from '../core/link-signals.js';
import type { AgentEventListener, PartLabel } from '../events/agent-events.js';
import type { DeepSearchResult } from '../events/deep-search-result.js';
import { EventBus } from '../events/event-bus.js';
import { createLexicalEmbedding } from '../providers/embedding/lexical-embedding.js';
import { createLexicalReranker } from '../providers/rerank/lexical-reranker.js';
import type { CodeRunner } from '../providers/spec/code-runner.js';
import type { EmbeddingProvider } from '../providers/spec/embedding-provider.js';
import type { LlmClient } from '../providers/spec/llm-client.js';
import type { PageReader } from '../providers/spec/page-reader.js';
import type { Reranker } from '../providers/spec/reranker.js';
import type { SearchProvider } from '../providers/spec/search-provider.js';
import { HostHealth } from '../retrieval/host-health.js';
import { findSourceUrls } from '../retrieval/normalize-url.js';
import { Budget } from './budget.js';
import { detectLanguage } from './language.js';
import type { CheckpointHook, RunCheckpoint, RunRestore } from './run-checkpoint.js';
import type { RunContext } from './run-context.js';
import { runLoop } from './run-loop.js';
import { AgentState, type SharedKnowledge } from './state/agent-state.js';
import type { StoredPage } from './state/page-store.js';

export interface AgentInput {
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
  /**
   * Runs the coding action's JavaScript. The agent knows only this interface: without one the
   * coding action is not offered (the runtime passes QuickJS).
   */
  codeRunner?: CodeRunner;
  /** Cancels the run; it stops within a second. */
  signal?: AbortSignal;
  /** One observer of the run's events; `observers` adds more. */
  onEvent?: AgentEventListener;
  observers?: ReadonlyArray<AgentEventListener>;
  /** Earlier turns of a conversation, given to the agent as chat-history knowledge. */
  history?: ReadonlyArray<{ question: string; answer: string }>;
  now?: () => Date;
  /** The run's id (default: a new UUID). */
  runId?: string;
  /** Goes on from a checkpoint of this run (same runId): its state, budget used and event sequence. */
  restore?: RunRestore;
  /** Called after every step with the run's state; the next step starts once it settles. */
  onCheckpoint?: CheckpointHook<RunCheckpoint>;
  /**
   * Told of each page as it joins the run's page store: what was read, as the quotes are checked
   * against it (the run store keeps the cited ones as the run's evidence).
   */
  onPageRead?: (page: StoredPage) => void;
}

/** What a run may share with the task it is part of. */
export interface SharedRunParts {
  /** The parent budget this run draws a child budget from (`childLimits` caps it). */
  budget?: Budget;
  childLimits?: Parameters<Budget['child']>[0];
  /** Sources, pages and knowledge shared between runs of one task. */
  knowledge?: SharedKnowledge;
  /** The parent run's bus: this run's events reach its observers too. */
  events?: EventBus;
  /** What this part is for, told in its run-start event. */
  part?: PartLabel;
}

/** A run ready to go: its context (state, budget, providers, events). `runLoop` runs it. */
export interface PreparedRun {
  context: RunContext;
  events: EventBus;
  /** True when the budget is this run's own; a child budget is released to its parent instead. */
  ownsBudget: boolean;
  parentRunId?: string;
  part?: PartLabel;
  onCheckpoint?: CheckpointHook<RunCheckpoint>;
  /** The checkpoint this run goes on from, if it is resumed. */
  restored?: RunCheckpoint;
}

/**
 * The deep search loop: steps until an answer passes evaluation or a budget runs out, then a
 * forced final answer. Always returns an answer (with its confidence) unless cancelled, a
 * provider rejects its key, or no search could be made at all.
 */
export async function runAgent(input: AgentInput): Promise<DeepSearchResult> {
  return runLoop(prepareRun(input));
}

/** Builds a run's state, budget and context without starting it. */
export function prepareRun(input: AgentInput, shared: SharedRunParts = {}): PreparedRun {
  const question = input.question.trim();
  if (!question) throw new InputError('the question is empty', { param: 'question' });
  throwIfAborted(input.signal);
  const restored = input.restore?.checkpoint;
  if (restored && shared.budget) throw new InputError('a run that shares a budget cannot be resumed alone');
  const budget = shared.budget
    ? shared.budget.child(shared.childLimits)
    : new Budget({ config: input.config.budget, restore: restored?.budget });
  const parentEvents = shared.events;
  const events = new EventBus({
    runId: input.runId,
    lastSeq: input.restore?.lastSeq,
    observers: [
      input.onEvent,
      ...(input.observers ?? []),
      parentEvents && ((event) => parentEvents.forward(event)),
    ],
  });
  const state = restored ? AgentState.fromJSON(restored.state) : new AgentState(question, shared.knowledge);
  if (!restored) seedState(state, question, input.history);
  const context: RunContext = {
    config: input.config,
    llm: input.llm,
    search: input.search,
    reader: input.reader,
    embedding: input.embedding ?? createLexicalEmbedding(),
    reranker: input.reranker ?? createLexicalReranker(),
    hostHealth: input.hostHealth ?? new HostHealth(),
    codeRunner: input.codeRunner,
    state,
    budget,
    emit: (event) => events.emit(event),
    runId: events.runId,
    cancelSignal: input.signal,
    signal: anySignal(budget.regularSignal, input.signal),
    finalSignal: anySignal(budget.hardSignal, input.signal),
    today: (input.now?.() ?? new Date()).toISOString().slice(0, 10),
    language: detectLanguage(question, input.config.agent.language),
    step: restored?.step ?? 0,
    onPageRead: input.onPageRead,
  };
  return {
    context,
    events,
    ownsBudget: !shared.budget,
    parentRunId: parentEvents?.runId,
    part: shared.part,
    onCheckpoint: input.onCheckpoint,
    restored,
  };
}

function seedState(state: AgentState, question: string, history: AgentInput['history']): void {
  // URLs written in the question are read first: the user pointed at them.
  for (const url of findSourceUrls(question)) {
    state.urls.add({
      url,
      title: '(given in the question)',
      source: 'question',
      step: 0,
    });
  }
  for (const turn of history ?? []) {
    state.knowledge.push({
      type: 'chat-history',
      question: turn.question,
      answer: turn.answer,
      urls: [],
      step: 0,
    });
  }
}
