import type { CustomizeVariantOptions, QuickJSSyncVariant, QuickJSWASMModule } from 'quickjs-emscripten-core';
import { InputError } from '../../errors/index.js';
import type { CodeRunError, CodeRunner, CodeRunRequest, CodeRunResult } from '../spec/code-runner.js';
import { readGuestOutcome } from './read-guest-outcome.js';
import { type QuickJsLimits, runInQuickJs } from './run-in-quickjs.js';

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
}

/**
 * Runs the model's JavaScript in QuickJS compiled to WebAssembly (quickjs-ng through
 * quickjs-emscripten): a separate heap and a separate global object, no host function exposed, so
 * no network, environment or filesystem. Each run gets a fresh runtime with the limits; the
 * WebAssembly module loads on the first run, so neither importing this file nor a run without
 * code pays for it.
 */
export function createQuickJsCodeRunner(settings: QuickJsCodeRunnerSettings): CodeRunner {
  const limits: QuickJsLimits = {
    timeoutMs: Math.round(settings.timeoutSeconds * 1000),
    memoryBytes: settings.memoryMb * 1024 * 1024,
    stackBytes: settings.stackKb * 1024,
    maxOutputChars: settings.maxOutputChars,
    maxLogChars: settings.maxLogChars,
  };
  let loading: Promise<QuickJsEngine> | undefined;
  const loadEngine = (): Promise<QuickJsEngine> => {
    loading ??= loadQuickJs(limits.memoryBytes).catch((error: unknown) => {
      loading = undefined;
      throw error;
    });
    return loading;
  };
  return {
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
      const engine = await loadEngine();
      if (request.signal?.aborted) return failed(abortedError);
      const began = performance.now();
      try {
        const outcome = runInQuickJs({
          module: engine.module,
          code: request.code,
          inputJson,
          limits,
          signal: request.signal,
        });
        const ms = Math.round(performance.now() - began);
        if (outcome.type === 'interrupted' && request.signal?.aborted) return { ...failed(abortedError), ms };
        return { ...readGuestOutcome(outcome, limits), ms };
      } catch (error) {
        // The engine itself failed (the host thread's stack ran out inside WebAssembly, an abort
        // when memory ran out where QuickJS could not throw): its state is unknown, so the next
        // run gets a fresh module and memory.
        loading = undefined;
        return failed(engineFailure(error, engine, limits));
      }
    },
  };
}

interface QuickJsEngine {
  module: QuickJSWASMModule;
  memory: WebAssembly.Memory;
}

const pageBytes = 65_536;
/** The module's own initial memory (stack, static data, first heap); its build asks for 16 MiB. */
const baseMemoryBytes = 16 * 1024 * 1024;

async function loadQuickJs(memoryBytes: number): Promise<QuickJsEngine> {
  const [{ newQuickJSWASMModuleFromVariant, newVariant }, variant] = await Promise.all([
    import('quickjs-emscripten-core'),
    import('@jitl/quickjs-ng-wasmfile-release-sync'),
  ]);
  // QuickJS's own memory limit does not hold for large strings and buffers in this build (it
  // counts allocations, not their bytes: quickjs-emscripten#271), so the WebAssembly memory itself
  // gets a maximum. Growing past it fails inside malloc and QuickJS throws "out of memory".
  const memory = new WebAssembly.Memory({
    initial: baseMemoryBytes / pageBytes,
    maximum: Math.ceil((baseMemoryBytes + memoryBytes) / pageBytes),
  });
  // Emscripten writes its own diagnostics ("Aborted(...)") to stderr; the runner reports failures
  // as results, so they must not reach a CLI user's terminal.
  const emscriptenModule = { print: ignore, printErr: ignore } as CustomizeVariantOptions['emscriptenModule'];
  // The package's types describe its CommonJS build; Node loads the ES build, whose default export
  // is the variant itself.
  const base = variant.default as unknown as QuickJSSyncVariant;
  const module = await newQuickJSWASMModuleFromVariant(
    newVariant(base, { wasmMemory: memory, emscriptenModule }),
  );
  return { module, memory };
}

function ignore(): void {}

const abortedError: CodeRunError = { kind: 'aborted', message: 'the run was cancelled' };

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

function engineFailure(error: unknown, engine: QuickJsEngine, limits: QuickJsLimits): CodeRunError {
  // The host's own stack overflow is a RangeError; aborts and traps are WebAssembly.RuntimeErrors.
  if (error instanceof RangeError) {
    return {
      kind: 'runtime',
      message: `stack overflow: the code recursed too deep (stack limit ${limits.stackBytes / 1024} KB); use a loop`,
    };
  }
  if ((engine.memory.buffer as ArrayBuffer).byteLength >= baseMemoryBytes + limits.memoryBytes) {
    return {
      kind: 'memory',
      message: `the code ran out of memory (limit ${limits.memoryBytes / 1024 / 1024} MB)`,
    };
  }
  return {
    kind: 'runtime',
    message: `the sandbox engine stopped: ${String((error as Error)?.message ?? error)}`,
  };
}
