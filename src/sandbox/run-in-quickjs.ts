import type { QuickJSContext, QuickJSHandle, QuickJSWASMModule } from 'quickjs-emscripten-core';
import { sandboxPrelude } from './sandbox-prelude.js';

export interface QuickJsLimits {
  timeoutMs: number;
  memoryBytes: number;
  stackBytes: number;
  maxOutputChars: number;
  maxLogChars: number;
}

/** What came out of the guest, before the host reads it as a result. */
export type GuestOutcome =
  | { type: 'envelope'; text: string }
  /** An exception the prelude could not catch (out of memory, a stack overflow in the prelude). */
  | { type: 'thrown'; name: string; message: string }
  | { type: 'interrupted' }
  | { type: 'unsettled' };

export interface RunInQuickJsOptions {
  module: QuickJSWASMModule;
  code: string;
  inputJson: string;
  limits: QuickJsLimits;
  /** Asked now and then during the run; true stops the guest as its deadline would. */
  shouldStop?: () => boolean;
}

/**
 * One run in a fresh QuickJS runtime (own heap, own limits), disposed afterwards. Synchronous: the
 * guest has no timers or I/O, so its promise jobs are drained here and the run's wall time is its
 * CPU time. It blocks its thread, which is why it runs only in the sandbox host process. Throws a
 * host error when the engine itself fails (the host thread's stack ran out inside WebAssembly, a
 * trap, an assertion); the caller then drops the module.
 */
export function runInQuickJs(options: RunInQuickJsOptions): GuestOutcome {
  const { module, limits } = options;
  const runtime = module.newRuntime();
  const deadline = Date.now() + limits.timeoutMs;
  let interrupted = false;
  // No QuickJS memory limit: the WebAssembly memory's maximum (load-quickjs.ts) is the limit, for
  // strings and buffers that QuickJS's count misses and for everything else, so running out is
  // always a failed growth the host sees, and a thrown null can be told from an exhausted heap.
  runtime.setMaxStackSize(limits.stackBytes);
  // QuickJS asks every few thousand operations; once it has said stop, it keeps saying so, so no
  // guest code (a getter on an error, a job) runs after the deadline.
  let nextStopCheck = 0;
  runtime.setInterruptHandler(() => {
    const now = Date.now();
    if (interrupted || now > deadline) interrupted = true;
    else if (options.shouldStop && now >= nextStopCheck) {
      nextStopCheck = now + 100;
      interrupted = options.shouldStop();
    }
    return interrupted;
  });
  const context = runtime.newContext();
  // No finally: after a host error the engine's state is unknown and freeing the runtime would
  // trip its assertions; the caller drops the whole module instead.
  const outcome = evaluate(context, options, () => interrupted);
  const settled: GuestOutcome = interrupted ? { type: 'interrupted' } : outcome;
  interrupted = true;
  context.dispose();
  runtime.dispose();
  return settled;
}

function evaluate(
  context: QuickJSContext,
  options: RunInQuickJsOptions,
  isInterrupted: () => boolean,
): GuestOutcome {
  const thrown = (error: QuickJSHandle): GuestOutcome => {
    try {
      return isInterrupted() ? { type: 'interrupted' } : describeThrown(context, error);
    } finally {
      error.dispose();
    }
  };
  const prelude = context.evalCode(sandboxPrelude, 'prelude.js');
  if (prelude.error) return thrown(prelude.error);
  const args = [
    context.newString(options.code),
    context.newString(options.inputJson),
    context.newNumber(options.limits.maxOutputChars),
    context.newNumber(options.limits.maxLogChars),
  ];
  const called = context.callFunction(prelude.value, context.undefined, args);
  for (const handle of args) handle.dispose();
  prelude.value.dispose();
  if (called.error) return thrown(called.error);
  const promise = called.value;
  try {
    const jobs = context.runtime.executePendingJobs(-1);
    if (jobs.error) return thrown(jobs.error);
    const state = context.getPromiseState(promise);
    if (state.type === 'pending') return { type: 'unsettled' };
    if (state.type === 'rejected') return thrown(state.error);
    try {
      if (context.typeof(state.value) !== 'string') {
        return { type: 'thrown', name: 'TypeError', message: 'the sandbox returned no result' };
      }
      return { type: 'envelope', text: context.getString(state.value) };
    } finally {
      state.value.dispose();
    }
  } finally {
    promise.dispose();
  }
}

/**
 * Name and message of an error the engine raised (out of memory, stack overflow). A getter the
 * code put on an error prototype would run here, still under the deadline; if it throws, the
 * error is reported without its text.
 */
function describeThrown(context: QuickJSContext, error: QuickJSHandle): GuestOutcome {
  try {
    return {
      type: 'thrown',
      name: stringProperty(context, error, 'name') ?? 'Error',
      message: stringProperty(context, error, 'message') ?? 'unknown error',
    };
  } catch {
    return { type: 'thrown', name: 'Error', message: 'an error that cannot be read' };
  }
}

function stringProperty(context: QuickJSContext, handle: QuickJSHandle, key: string): string | undefined {
  if (context.typeof(handle) !== 'object') return undefined;
  const value = context.getProp(handle, key);
  try {
    return context.typeof(value) === 'string' ? context.getString(value) : undefined;
  } finally {
    value.dispose();
  }
}
