import type { DeepSearchConfig } from '../../../config/config-schema.js';
import { smallContextTokens } from '../../../platform/llm-context/fit-context-window.js';
import type { DeepSearchRuntime } from '../../../runtime/create-runtime.js';
import type { CheckResult } from './doctor-checks.js';

const contextFix =
  'give the model a larger window (Ollama: OLLAMA_CONTEXT_LENGTH=16384 or num_ctx; llama.cpp: --ctx-size; ' +
  'vLLM: --max-model-len; LM Studio: the context length slider), or lower llm.contextTokens to match';

/**
 * The window a local server really gives the model against the prompt budget (llm.contextTokens):
 * Ollama's default of 2-4k tokens silently cuts the front of longer prompts, instructions first.
 * Runs fit themselves to a smaller window with a warning, so a smaller one fails only when it
 * is below what a step needs at all; the structured-output mode the LLM check found is named.
 */
export async function checkContextWindow(
  config: DeepSearchConfig,
  runtime: DeepSearchRuntime,
): Promise<CheckResult> {
  const budget = config.llm.contextTokens;
  const mode = runtime.llm.describe('agent').structuredOutput;
  const modeNote = `structured output: ${mode === 'json-schema' ? 'JSON schema (constrained decoding)' : 'prompt mode'}`;
  const window = await runtime.llm.contextWindow('agent', AbortSignal.timeout(5000)).catch(() => undefined);
  if (!window) {
    return {
      name: 'context',
      ok: true,
      detail: `budget ${budget} tokens; the server does not say its window (hosted, or no window endpoint); ${modeNote}`,
    };
  }
  const where = `${window.tokens} tokens (${window.source})`;
  if (window.tokens >= budget) {
    return {
      name: 'context',
      ok: true,
      detail: `window ${where} holds the budget of ${budget}; ${modeNote}`,
    };
  }
  const profile = window.tokens <= smallContextTokens ? ', with the small-context profile' : '';
  return {
    name: 'context',
    ok: window.tokens >= minimumWorkableTokens,
    detail: `window ${where} is smaller than the budget of ${budget}: prompts will be fitted to it${profile}; ${modeNote}`,
    fix: contextFix,
  };
}

/** Below this a step's system prompt, question and a few snippets no longer fit. */
const minimumWorkableTokens = 4096;
