import type { LanguageModelV3 } from '@ai-sdk/provider';
import type { ScriptedLlm } from '../../src/testing/scripted-llm.js';
import { createRoutedLlm } from './routed-llm.js';

/** Which calls a scripted model answers: by schema name, by text in the prompt, or both. */
export interface ScriptRoute {
  schemaName?: string;
  promptIncludes?: string;
  llm: ScriptedLlm;
}

export interface ScriptRouter extends LanguageModelV3 {
  /** Calls no route matched. */
  readonly problems: string[];
  /** Throws if a call matched no route or any route's model has problems or unused steps. */
  assertConsumed(): void;
}

/**
 * The routed LLM (routed-llm.ts) with a scripted model on every route: each stream of calls that
 * runs in parallel with others is scripted on its own route, in order, instead of one queue.
 */
export function createScriptRouter(routes: ScriptRoute[]): ScriptRouter {
  return createRoutedLlm(routes);
}
