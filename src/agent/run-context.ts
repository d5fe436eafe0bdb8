import type { DeepSearchConfig } from '../config/config-schema.js';
import type { EmbeddingProvider } from '../providers/spec/embedding-provider.js';
import type { LlmClient, StructuredRequest, StructuredResult } from '../providers/spec/llm-client.js';
import type { PageReader } from '../providers/spec/page-reader.js';
import type { Reranker } from '../providers/spec/reranker.js';
import type { SearchProvider } from '../providers/spec/search-provider.js';
import type { HostHealth } from '../retrieval/host-health.js';
import type { AgentEvent } from './agent-events.js';
import type { Budget } from './budget.js';
import type { AgentState } from './state/agent-state.js';

export interface LanguageInfo {
  /** English name of the question's language when detected with confidence. */
  name: string | undefined;
  /** The rule every answering prompt carries. */
  rule: string;
}

/** What every step needs: the providers, the state, the budget and a way to report. */
export interface RunContext {
  config: DeepSearchConfig;
  llm: LlmClient;
  search: SearchProvider;
  reader: PageReader;
  /** Query dedup and snippet scoring; the built-in lexical one when no service is configured. */
  embedding: EmbeddingProvider;
  /** URL relevance; the built-in BM25 one when no service is configured. */
  reranker: Reranker;
  /** Hosts that failed or were paywalled, shared across runs of one runtime. */
  hostHealth: HostHealth;
  state: AgentState;
  budget: Budget;
  emit: (event: AgentEvent) => void;
  /** The caller's own signal: cancellation, as opposed to running out of time. */
  cancelSignal: AbortSignal | undefined;
  /** Aborts on cancel or when regular steps are out of time. */
  signal: AbortSignal;
  /** Aborts on cancel or when the whole run is out of time (used by the final answer). */
  finalSignal: AbortSignal;
  today: string;
  language: LanguageInfo;
  step: number;
}

/**
 * Names small models (and the reference implementation's prompts) use for our fields. A synonym
 * applies only where the schema has the target key and not the synonym, so one table serves
 * every role.
 */
const commonKeyAliases: Readonly<Record<string, string>> = {
  exactQuote: 'quote',
  urls: 'targets',
  query: 'queries',
  answer: 'text',
};

/**
 * Every LLM call goes through here: usage per role, time, and retry notices are recorded. Usage
 * is counted per HTTP request as the client reports it, so re-asked, retried and failed requests
 * count, not only the reply that validated.
 */
export async function callLlm<T>(
  context: RunContext,
  request: Omit<StructuredRequest<T>, 'signal' | 'onRetry' | 'onCall'> & { signal?: AbortSignal },
): Promise<StructuredResult<T>> {
  const started = performance.now();
  let reported = 0;
  try {
    const result = await context.llm.generateObject({
      ...request,
      keyAliases: { ...commonKeyAliases, ...request.keyAliases },
      signal: request.signal ?? context.signal,
      onRetry: (notice) => context.emit({ type: 'retry', step: context.step, role: request.role, ...notice }),
      onCall: (record) => {
        reported++;
        context.budget.addLlmCall(record);
      },
    });
    // A library user's own LlmClient may not report requests; its result still counts once.
    if (reported === 0) {
      context.budget.addLlmCall({
        role: request.role,
        model: result.model,
        promptTokens: result.usage.promptTokens,
        completionTokens: result.usage.completionTokens,
        ms: result.durationMs,
        outcome: 'ok',
        estimated: result.usageEstimated,
        repairs: result.repairs,
      });
    }
    return result;
  } finally {
    context.budget.addTime('llm', performance.now() - started);
  }
}
