import type { CustomizeVariantOptions, QuickJSSyncVariant, QuickJSWASMModule } from 'quickjs-emscripten-core';
import type { CodeRunError } from './code-run.js';
import { memoryError } from './read-guest-outcome.js';
import type { QuickJsLimits } from './run-in-quickjs.js';

export interface QuickJsEngine {
  module: QuickJSWASMModule;
  memory: WebAssembly.Memory;
  /** Times the heap asked for more memory than the maximum allows: it ran out, whatever was thrown. */
  readonly growFailures: () => number;
}

const pageBytes = 65_536;
/** The module's own initial memory (stack, static data, first heap); its build asks for 16 MiB. */
const baseMemoryBytes = 16 * 1024 * 1024;

/** quickjs-ng compiled to WebAssembly, with a memory that cannot grow past the run's limit. */
export async function loadQuickJs(memoryBytes: number): Promise<QuickJsEngine> {
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
  // The one sure sign the guest ran out of memory: malloc's request to grow past the maximum.
  // QuickJS throws null when it cannot even make the error object, the same value as `throw null`.
  let growFailures = 0;
  const grow = memory.grow.bind(memory);
  memory.grow = (pages: number) => {
    try {
      return grow(pages);
    } catch (error) {
      growFailures++;
      throw error;
    }
  };
  // Emscripten writes its own diagnostics ("Aborted(...)") to stderr; the runner reports failures
  // as results, so they must not reach a CLI user's terminal.
  const emscriptenModule = { print: ignore, printErr: ignore } as CustomizeVariantOptions['emscriptenModule'];
  // The package's types describe its CommonJS build; Node loads the ES build, whose default export
  // is the variant itself.
  const base = variant.default as unknown as QuickJSSyncVariant;
  const module = await newQuickJSWASMModuleFromVariant(
    newVariant(base, { wasmMemory: memory, emscriptenModule }),
  );
  return { module, memory, growFailures: () => growFailures };
}

function ignore(): void {}

/** What a host error out of the engine means for the code that was running. */
export function engineFailure(error: unknown, engine: QuickJsEngine, limits: QuickJsLimits): CodeRunError {
  // The host's own stack overflow is a RangeError; aborts and traps are WebAssembly.RuntimeErrors.
  if (error instanceof RangeError) {
    return {
      kind: 'runtime',
      message: `stack overflow: the code recursed too deep (stack limit ${limits.stackBytes / 1024} KB); use a loop`,
    };
  }
  if ((engine.memory.buffer as ArrayBuffer).byteLength >= baseMemoryBytes + limits.memoryBytes) {
    return memoryError(limits);
  }
  return {
    kind: 'runtime',
    message: `the sandbox engine stopped: ${String((error as Error)?.message ?? error)}`,
  };
}
