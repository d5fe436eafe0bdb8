import { ConfigError } from '../core/errors/index.js';

/**
 * The part of node-llama-cpp this provider uses, written out so that the project builds and
 * type-checks without the package installed (it is an optional peer dependency; see
 * scripts/install-embedded-runtime.sh). The real module is checked against these shapes by the
 * tests that load a model through it.
 */
export interface LlamaRuntime {
  getLlama(options: {
    gpu: 'auto' | false | 'metal' | 'cuda' | 'vulkan';
    build: 'never';
    logLevel: 'error' | 'warn';
    logger?: (level: string, message: string) => void;
  }): Promise<Llama>;
  LlamaChat: new (options: { contextSequence: LlamaSequence; autoDisposeSequence?: boolean }) => LlamaChat;
}

export interface Llama {
  readonly gpu: false | 'metal' | 'cuda' | 'vulkan';
  readonly cpuMathCores: number;
  /** The most threads all of this instance's contexts use at once; lowering it applies at the next batch. */
  maxThreads: number;
  loadModel(options: { modelPath: string }): Promise<LlamaModel>;
  createGrammarForJsonSchema(schema: unknown): Promise<LlamaGrammar>;
  dispose(): Promise<void>;
}

export interface LlamaModel {
  readonly trainContextSize: number;
  readonly size: number;
  readonly gpuLayers: number;
  tokenize(text: string): readonly number[];
  createContext(options: {
    contextSize: number | { min?: number; max?: number };
    sequences: number;
    threads?: number | { ideal: number; min: number };
  }): Promise<LlamaContext>;
  dispose(): Promise<void>;
}

export interface LlamaContext {
  readonly contextSize: number;
  getSequence(): LlamaSequence;
  dispose(): Promise<void>;
}

export interface LlamaSequence {
  readonly nextTokenIndex: number;
  readonly tokenMeter: { readonly usedInputTokens: number; readonly usedOutputTokens: number };
  evaluateWithoutGeneratingNewTokens(tokens: readonly number[]): Promise<void>;
  clearHistory(): Promise<void>;
}

// Opaque: created by createGrammarForJsonSchema and handed back to generateResponse.
export type LlamaGrammar = object;

export type ChatHistoryItem =
  | { type: 'system'; text: string }
  | { type: 'user'; text: string }
  | { type: 'model'; response: string[] };

export interface LlamaChat {
  generateResponse(
    history: ChatHistoryItem[],
    options: {
      grammar?: LlamaGrammar;
      maxTokens?: number;
      temperature?: number;
      signal?: AbortSignal;
      stopOnAbortSignal?: boolean;
      onTextChunk?: (text: string) => void;
      budgets?: { thoughtTokens?: number };
    },
  ): Promise<{ response: string; metadata: { stopReason: string } }>;
}

/** The command that installs the runtime, in every message about it. */
export const installRuntimeCommand = 'npm install -g node-llama-cpp';

/** Set when node-llama-cpp cannot be loaded. */
export const runtimeMissingCode = 'embedded_runtime_missing';

let runtime: Promise<LlamaRuntime> | undefined;

/**
 * node-llama-cpp, imported on first use only, so nobody who does not use the embedded model pays
 * for it (its import alone takes a few hundred milliseconds). A missing package is a ConfigError
 * that says how to install it.
 */
export function loadLlamaRuntime(): Promise<LlamaRuntime> {
  runtime ??= import(runtimeModuleName).then(
    (module) => module as LlamaRuntime,
    (error: unknown) => {
      runtime = undefined;
      throw runtimeError(error);
    },
  );
  return runtime;
}

/** True when node-llama-cpp can be imported; never throws. */
export async function isLlamaRuntimeInstalled(): Promise<boolean> {
  try {
    await loadLlamaRuntime();
    return true;
  } catch {
    return false;
  }
}

// A variable, so that TypeScript does not look for the package's types when it is absent.
const runtimeModuleName: string = 'node-llama-cpp';

function runtimeError(error: unknown): Error {
  const missing =
    error instanceof Error &&
    ((error as NodeJS.ErrnoException).code === 'ERR_MODULE_NOT_FOUND' ||
      /Cannot find (package|module) 'node-llama-cpp'/.test(error.message));
  const reason = missing ? 'is not installed' : `could not be loaded (${(error as Error).message})`;
  return new ConfigError(
    `the embedded model needs node-llama-cpp, which ${reason}: install it beside deepsearch with ` +
      `${installRuntimeCommand} (or npm install node-llama-cpp in your project), or set another LLM ` +
      '(DEEPSEARCH_LLM_BASE_URL for Ollama or llama.cpp, or an API key)',
    { code: runtimeMissingCode, cause: error },
  );
}
