import type { DeepSearchConfig } from '../../config/config-schema.js';
import type { ContextWindow } from './probe-context-window.js';

/** At or below this many tokens of context, prompts use the small profile (see build-agent-prompt.ts). */
export const smallContextTokens = 16_384;

/** The schema's floor for llm.contextTokens: below it no step prompt fits at all. */
const minimumContextTokens = 2048;

export interface FittedContext {
  config: DeepSearchConfig;
  /** Set when the server's window is smaller than the configured budget. */
  warning?: string;
}

/**
 * The run's config with `llm.contextTokens` no larger than the window the server really gives
 * the model: a local server silently drops the front of a longer prompt (our instructions
 * first), which is worse than a smaller prompt.
 */
export function fitContextWindow(config: DeepSearchConfig, window: ContextWindow | undefined): FittedContext {
  const configured = config.llm.contextTokens;
  if (!window || window.tokens >= configured) return { config };
  const tokens = Math.max(minimumContextTokens, window.tokens);
  if (window.chosenByProvider)
    return { config: { ...config, llm: { ...config.llm, contextTokens: tokens } } };
  const profile = tokens <= smallContextTokens ? ', with the small-context profile' : '';
  return {
    config: { ...config, llm: { ...config.llm, contextTokens: tokens } },
    warning:
      `the LLM server gives the model a context window of ${window.tokens} tokens (${window.source}), ` +
      `smaller than llm.contextTokens (${configured}): prompts are fitted to ${tokens} tokens${profile}. ` +
      'A larger window gives better answers (Ollama: OLLAMA_CONTEXT_LENGTH or num_ctx; llama.cpp: --ctx-size; ' +
      'vLLM: --max-model-len).',
  };
}
