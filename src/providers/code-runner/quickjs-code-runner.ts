import { InputError } from '../../core/errors/index.js';
import { timeoutError } from '../../sandbox/read-guest-outcome.js';
import type { QuickJsLimits } from '../../sandbox/run-in-quickjs.js';
import { createSandboxHostPool } from '../../sandbox/sandbox-host-pool.js';
import type { HostAnswer } from '../../sandbox/sandbox-host-process.js';
import type { SandboxHostDescription } from '../../sandbox/sandbox-host-protocol.js';
import type { CodeRunError, CodeRunner, CodeRunRequest, CodeRunResult } from '../spec/code-runner.js';

/** The limits of one run; `config.sandbox` has this shape. */
export interface QuickJsCodeRunnerSettings {
  /** CPU time of one run (the guest cannot wait on anything, so wall time is CPU time). */
  timeoutSeconds: number;
  /** Heap of the run's QuickJS runtime. */
  memoryMb: number;
  /** Stack of the run's QuickJS runtime; deep recursion fails with a stack overflow. */
  stackKb: number;
  /** Size of the returned value as JSON. */
  maxOutputChars: number;
  /** console.log output kept, in total. */
  maxLogChars: number;
  /** Sandbox processes running code at once (default 1); more runs wait their turn. */
  concurrency?: number;
}

export interface QuickJsCodeRunner extends CodeRunner {
  /**
   * What a sandbox process sees (environment names, permissions, whether it may read `paths`);
   * starts one if none runs.
   */
  describeHost(paths?: string[]): Promise<SandboxHostDescription>;
  /** Kills the sandbox processes (a later run starts new ones). */
  close(): void;
}

/** Time past the run's own limit before its process is killed from outside. */
const hardKillMarginMs = 2000;
/** Time for a sandbox process to start and load the engine (a busy machine is slow at it). */
const startTimeoutMs = 30_000;

/**
 * Runs the model's JavaScript in QuickJS compiled to WebAssembly (quickjs-ng through
 * quickjs-emscripten) inside a separate Node process, the sandbox host: a separate heap and
 * global object with no host function exposed, in a process with an empty environment and Node's
 * permission model. The host starts on the first run and stays for the next ones (the engine
 * loads once); each run gets a fresh QuickJS runtime with the limits. A run is never evaluated in
 * this process, so a long one does not stop its event loop; one that outlives its limit by
 * `hardKillMarginMs`, or is cancelled, gets its host killed, and the next run starts another.
 */
export function createQuickJsCodeRunner(settings: QuickJsCodeRunnerSettings): QuickJsCodeRunner {
  const limits: QuickJsLimits = {
    timeoutMs: Math.round(settings.timeoutSeconds * 1000),
    memoryBytes: settings.memoryMb * 1024 * 1024,
    stackBytes: settings.stackKb * 1024,
    maxOutputChars: settings.maxOutputChars,
    maxLogChars: settings.maxLogChars,
  };
  const concurrency = settings.concurrency ?? 1;
  if (!Number.isInteger(concurrency) || concurrency < 1) {
    throw new InputError(`concurrency must be a whole number of at least 1, not ${concurrency}`, {
      param: 'concurrency',
    });
  }
  const pool = createSandboxHostPool({ size: concurrency, limits, startTimeoutMs });
  return {
    specificationVersion: 'v1',
    id: 'quickjs',
    async run(request: CodeRunRequest): Promise<CodeRunResult> {
      const inputJson = toInputJson(request.input);
      const started = performance.now();
      const failed = (error: CodeRunError): CodeRunResult => ({
        ok: false,
        error,
        logs: [],
        ms: Math.round(performance.now() - started),
      });
      if (request.signal?.aborted) return failed(abortedError);
      const answer = await pool.request(
        { type: 'run', code: request.code, inputJson },
        { signal: request.signal, deadlineMs: limits.timeoutMs + hardKillMarginMs },
      );
      if (!answer.ok) return failed(failureError(answer, limits));
      if (answer.reply.type !== 'result') return failed(unexpectedReply);
      return { ...answer.reply.result, ms: answer.reply.ms };
    },
    async describeHost(paths = []) {
      const answer = await pool.request({ type: 'describe', paths }, { deadlineMs: startTimeoutMs });
      if (answer.ok && answer.reply.type === 'description') return answer.reply.description;
      const why = answer.ok ? 'an unexpected reply' : failureError(answer, limits).message;
      throw new Error(`the sandbox process did not describe itself: ${why}`);
    },
    close: () => pool.close(),
  };
}

const sharedRunners = new Map<string, QuickJsCodeRunner>();

/**
 * One runner per distinct settings for callers that do not keep their own (a run made without a
 * runtime), so each run does not start a process of its own.
 */
export function sharedQuickJsCodeRunner(settings: QuickJsCodeRunnerSettings): QuickJsCodeRunner {
  const key = JSON.stringify([
    settings.timeoutSeconds,
    settings.memoryMb,
    settings.stackKb,
    settings.maxOutputChars,
    settings.maxLogChars,
    settings.concurrency ?? 1,
  ]);
  let runner = sharedRunners.get(key);
  if (!runner) {
    runner = createQuickJsCodeRunner(settings);
    sharedRunners.set(key, runner);
  }
  return runner;
}

const abortedError: CodeRunError = { kind: 'aborted', message: 'the run was cancelled' };
const unexpectedReply: CodeRunError = { kind: 'runtime', message: 'the sandbox process gave no result' };

function failureError(failure: Extract<HostAnswer, { ok: false }>, limits: QuickJsLimits): CodeRunError {
  switch (failure.reason) {
    case 'aborted':
      return abortedError;
    case 'deadline':
      return timeoutError(limits);
    case 'memory':
      // The host's own heap (not the guest's bounded WebAssembly memory) ran out.
      return {
        kind: 'runtime',
        message: 'the sandbox process ran out of memory; the next run starts a new one',
      };
    case 'exited':
      return {
        kind: 'runtime',
        message: `the sandbox process ${failure.detail}; the next run starts a new one`,
      };
  }
}

function toInputJson(input: unknown): string {
  let json: string | undefined;
  try {
    json = JSON.stringify(input ?? null);
  } catch (error) {
    throw new InputError(`the code's input is not JSON data: ${(error as Error).message}`, {
      param: 'input',
    });
  }
  if (json === undefined) throw new InputError("the code's input is not JSON data", { param: 'input' });
  return json;
}
