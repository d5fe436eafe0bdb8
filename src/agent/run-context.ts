import type { DeepSearchConfig } from '../config/config-schema.js';
import { isProviderError, isStructuredOutputError } from '../core/errors/index.js';
import type { AgentEventBody } from '../events/agent-events.js';
import type { CodeRunner } from '../providers/spec/code-runner.js';
import type { EmbeddingProvider } from '../providers/spec/embedding-provider.js';
import type {
  LlmCallRecord,
  LlmClient,
  StructuredRequest,
  StructuredResult,
} from '../providers/spec/llm-client.js';
import type { PageReader } from '../providers/spec/page-reader.js';
import type { Reranker } from '../providers/spec/reranker.js';
import type { SearchProvider } from '../providers/spec/search-provider.js';
import type { HostHealth } from '../retrieval/host-health.js';
import type { Budget } from './budget.js';
import type { AgentState } from './state/agent-state.js';
import type { StoredPage } from './state/page-store.js';
import { stopRunWith } from './steps/step-errors.js';

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
  /**
   * Runs the coding action's JavaScript in a sandbox; the caller (the runtime) supplies it. A run
   * without one is never offered the coding action.
   */
  codeRunner?: CodeRunner;
  state: AgentState;
  budget: Budget;
  /** Reports to every observer of the run (the bus adds run id, sequence and time). */
  emit: (event: AgentEventBody) => void;
  /** The run's id, carried by its events. */
  runId: string;
  /** The caller's own signal: cancellation, as opposed to running out of time. */
  cancelSignal: AbortSignal | undefined;
  /** Aborts on cancel or when regular steps are out of time. */
  signal: AbortSignal;
  /** Aborts on cancel or when the whole run is out of time (used by the final answer). */
  finalSignal: AbortSignal;
  today: string;
  language: LanguageInfo;
  step: number;
  /** Told of each page read into the page store (the run's evidence is kept from them). */
  onPageRead?: (page: StoredPage) => void;
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
  // References cite sources by number now; a copied URL still finds its source.
  url: 'source',
};

/**
 * Every LLM call goes through here: usage per role, time, retry notices and one `llm-call` event
 * per HTTP request (with what it cost, whether it failed or not) are recorded. Usage is counted
 * per request as the client reports it, so re-asked, retried and failed requests count, not
 * only the reply that validated.
 */
export async function callLlm<T>(
  context: RunContext,
  request: Omit<StructuredRequest<T>, 'signal' | 'onRetry' | 'onCall'> & { signal?: AbortSignal },
): Promise<StructuredResult<T>> {
  const started = performance.now();
  const waited = context.budget.wait('llm');
  context.budget.markLlmCall();
  let reported = 0;
  const record = (call: LlmCallRecord) => {
    reported++;
    context.budget.addLlmCall(call);
    context.emit({ type: 'llm-call', step: context.step, ...call });
  };
  try {
    const result = await context.llm.generateObject({
      ...request,
      keyAliases: { ...commonKeyAliases, ...request.keyAliases },
      signal: request.signal ?? context.signal,
      onRetry: (notice) => context.emit({ type: 'retry', step: context.step, role: request.role, ...notice }),
      onCall: record,
    });
    context.budget.llmAnswered = true;
    // A library user's own LlmClient may not report requests; its result still counts once.
    if (reported === 0) {
      record({
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
  } catch (error) {
    // Failed before any request (a missing key) or in a client that does not report requests.
    if (reported === 0) {
      context.emit({
        type: 'llm-call',
        step: context.step,
        role: request.role,
        model: '',
        promptTokens: 0,
        completionTokens: 0,
        ms: Math.round(performance.now() - started),
        outcome: isStructuredOutputError(error) ? 'parse-failure' : 'error',
        estimated: true,
        repairs: 0,
        error: error instanceof Error ? error.message : String(error),
      });
    }
    // The model has not answered once in this run: it is down or misconfigured, and a run with
    // nothing learned can only end in "not found". Stop with the cause instead.
    if (!context.budget.llmAnswered && isProviderError(error) && !isStructuredOutputError(error)) {
      throw stopRunWith(error);
    }
    throw error;
  } finally {
    waited();
  }
}
