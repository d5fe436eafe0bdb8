import { assertFitsContext } from '../providers/llm/assert-fits-context.js';
import { type FittedContext, fitContextWindow } from '../providers/llm/fit-context-window.js';
import { assertSearchConfigured } from '../providers/search/search-provider-choice.js';
import type { AskOptions } from './create-runtime.js';
import type { RuntimeProviders } from './runtime-providers.js';

/**
 * Checks a run's input against the model's window before any LLM call (an oversized question
 * is the user's to fix), and fits the run's config to the window the server really has.
 */
export async function fitRun(
  runtime: RuntimeProviders,
  question: string,
  runOptions: Pick<AskOptions, 'config' | 'history' | 'signal'>,
): Promise<FittedContext> {
  const runConfig = runOptions.config ?? runtime.config;
  assertFitsContext({ question, history: runOptions.history, contextTokens: runConfig.llm.contextTokens });
  // A missing SearXNG instance fails here, before any LLM call (the window query included).
  if (!runtime.options.search) assertSearchConfigured(runConfig);
  const window = await runtime.parts.llm.contextWindow('agent', runOptions.signal);
  const fitted = fitContextWindow(runConfig, window);
  assertFitsContext({
    question,
    history: runOptions.history,
    contextTokens: fitted.config.llm.contextTokens,
  });
  return fitted;
}
