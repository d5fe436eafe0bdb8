import type {
  LanguageModelV3,
  LanguageModelV3CallOptions,
  LanguageModelV3GenerateResult,
  LanguageModelV3StreamPart,
} from '@ai-sdk/provider';
import {
  createScriptedLlm,
  recordCall,
  type ScriptedCall,
  type ScriptedLlm,
  type ScriptedStep,
} from '../../src/testing/scripted-llm.js';

/** Which calls a route takes: by schema name, by text in the system prompt + messages, or both. */
interface RouteMatch {
  schemaName?: string;
  /** Text the system prompt + messages must contain for the route to match. */
  promptIncludes?: string | string[];
  /** Calls before the route stops matching (default: unlimited). */
  times?: number;
  label?: string;
}

/**
 * One kind of call and how to answer it: with a reply (the same for every call, or a function of
 * the call), or with a scripted model whose steps answer the route's calls in order, each checked
 * against its expectations (`llm.calls` then holds the route's own calls).
 */
export type LlmRoute = RouteMatch &
  (
    | {
        /** The reply object (sent as JSON; a string is sent as is), or a function of the call giving it. */
        reply: unknown | ((call: ScriptedCall) => unknown);
        /** Fixed latency of each reply; honours the call's abort signal. */
        delayMs?: number;
      }
    | { llm: ScriptedLlm }
  );

export interface RoutedLlm extends LanguageModelV3 {
  /** Every call in arrival order, with the route that answered it (label). */
  readonly calls: ScriptedCall[];
  /** Calls no route matched, replies that threw. */
  readonly problems: string[];
  /** Most calls in flight at once. */
  readonly maxConcurrent: number;
  /** Adds routes, consulted before the existing ones (a test overrides a default). */
  route(...routes: LlmRoute[]): void;
  /** Throws if a call found no route or a route with `times` was not used up. */
  assertNoProblems(): void;
  /** assertNoProblems, and every route's scripted model used all its steps and saw no problem. */
  assertConsumed(): void;
}

/**
 * The fake model for work whose call order is not fixed (research sections, verification
 * searches and writing stages in parallel): each call goes to the first route that matches it, so
 * a test says what to answer to a kind of call, not in which order calls come. Replies are written
 * by the scripted LLM, so usage, streaming and abort behave as in the scripted tests.
 */
export function createRoutedLlm(
  routes: LlmRoute[],
  options: { modelId?: string; delayMs?: number } = {},
): RoutedLlm {
  const table = routes.map((route) => ({ route, used: 0 }));
  const calls: ScriptedCall[] = [];
  const problems: string[] = [];
  let inFlight = 0;
  let maxConcurrent = 0;

  const modelFor = (route: LlmRoute, call: ScriptedCall): LanguageModelV3 => {
    if ('llm' in route) return route.llm;
    const object = typeof route.reply === 'function' ? route.reply(call) : route.reply;
    const step: ScriptedStep = {
      ...(typeof object === 'string' ? { text: object } : { object }),
      delayMs: route.delayMs ?? options.delayMs,
    };
    return createScriptedLlm([step], { modelId: options.modelId });
  };

  const answer = async <R>(
    callOptions: LanguageModelV3CallOptions,
    streamed: boolean,
    run: (model: LanguageModelV3, options: LanguageModelV3CallOptions) => PromiseLike<R>,
  ): Promise<R> => {
    const seen = recordCall(callOptions, calls.length, undefined);
    const haystack = `${seen.system}\n${seen.prompt}`;
    const entry = table.find(
      ({ route, used }) =>
        (route.times === undefined || used < route.times) &&
        (route.schemaName === undefined || route.schemaName === seen.schemaName) &&
        toList(route.promptIncludes).every((needle) => haystack.includes(needle)),
    );
    const call: ScriptedCall = { ...seen, label: entry?.route.label, streamed };
    calls.push(call);
    if (!entry) {
      const problem = `no route for call #${call.index + 1} (schema ${call.schemaName ?? 'none'}): ${seen.prompt.slice(0, 200)}`;
      problems.push(problem);
      throw new Error(`routed LLM: ${problem}`);
    }
    entry.used++;
    const model = modelFor(entry.route, call);
    inFlight++;
    maxConcurrent = Math.max(maxConcurrent, inFlight);
    try {
      return await run(model, callOptions);
    } finally {
      inFlight--;
    }
  };

  const assertNoProblems = () => {
    const issues = [...problems];
    for (const { route, used } of table) {
      if (route.times !== undefined && used < route.times) {
        issues.push(`route ${route.label ?? route.schemaName ?? '?'} used ${used} of ${route.times} times`);
      }
    }
    if (issues.length > 0) throw new Error(`routed LLM: ${issues.join('; ')}`);
  };

  return {
    specificationVersion: 'v3',
    provider: 'routed',
    modelId: options.modelId ?? 'routed-model',
    supportedUrls: {},
    calls,
    problems,
    get maxConcurrent() {
      return maxConcurrent;
    },
    route: (...more) => table.unshift(...more.map((route) => ({ route, used: 0 }))),
    assertNoProblems,
    assertConsumed() {
      assertNoProblems();
      for (const { route } of table) if ('llm' in route) route.llm.assertConsumed();
    },
    doGenerate: (callOptions): Promise<LanguageModelV3GenerateResult> =>
      answer(callOptions, false, (model, o) => model.doGenerate(o)),
    doStream: (callOptions): Promise<{ stream: ReadableStream<LanguageModelV3StreamPart> }> =>
      answer(callOptions, true, (model, o) => model.doStream(o)),
  };
}

function toList(value: string | string[] | undefined): string[] {
  if (value === undefined) return [];
  return Array.isArray(value) ? value : [value];
}
