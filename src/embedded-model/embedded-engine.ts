import type { EmbeddedLlmSettings } from '../config/config-schema.js';
import { ConfigError } from '../core/errors/index.js';
import { createSemaphore } from '../core/semaphore.js';
import { estimateTokens } from '../platform/llm-context/estimate-tokens.js';
import { smallContextTokens } from '../platform/llm-context/fit-context-window.js';
import type { GrammarSchema } from '../structured-output/to-grammar-schema.js';
import { checkGgufFile } from './gguf-header.js';
import {
  type ChatHistoryItem,
  type Llama,
  type LlamaContext,
  type LlamaModel,
  type LlamaRuntime,
  type LlamaSequence,
  loadLlamaRuntime,
} from './load-llama-runtime.js';
import { measureReading, measureWriting, speedPrompt } from './measure-speed.js';

export type EmbeddedBackend = 'CPU' | 'Metal' | 'CUDA' | 'Vulkan';

/**
 * The agent's own steps (and the forced final answer) keep one sequence, so the long system
 * prompt they share stays in its KV cache from step to step; every other role (judges, query
 * rewriting, planning) takes the other, so they never evict it.
 */
export type EmbeddedLane = 'loop' | 'helpers';

export interface EmbeddedEngineInfo {
  modelPath: string;
  backend: EmbeddedBackend;
  /** Tokens each sequence holds: the model's trained window, capped by the config and memory. */
  contextTokens: number;
  trainContextTokens: number;
  /** Threads the model computes with now (`setThreads` changes it). */
  threads: number;
  /** The most it may use: the setting when one is given, else the machine's math cores. */
  maxThreads: number;
  /** Whether a setting (`--llm-threads`, DEEPSEARCH_LLM_THREADS) chose the threads. */
  threadsFromSetting: boolean;
  gpuLayers: number;
  loadMs: number;
  /**
   * estimateTokens() counts per real token of this model's tokenizer, on English prose: the
   * prompt budget is in estimated tokens, so a window of N real tokens holds N × this of them.
   */
  estimatedPerRealToken: number;
}

export interface EmbeddedRequest {
  lane: EmbeddedLane;
  messages: ChatHistoryItem[];
  grammar?: GrammarSchema;
  maxTokens?: number;
  temperature?: number;
  signal?: AbortSignal;
  onTextChunk?: (text: string) => void;
}

export interface EmbeddedGeneration {
  text: string;
  /** The whole prompt, the part reused from the sequence's KV cache included. */
  promptTokens: number;
  /** Prompt tokens not evaluated again: the prefix this sequence already held. */
  cachedPromptTokens: number;
  completionTokens: number;
  stopReason: string;
  /** Time in the queue behind other calls for the same lane. */
  queuedMs: number;
}

export interface EmbeddedEngine {
  readonly info: EmbeddedEngineInfo;
  generate(request: EmbeddedRequest): Promise<EmbeddedGeneration>;
  /** Tokens of `text` under this model's tokenizer. */
  countTokens(text: string): number;
  /** Prompt tokens read per second, timed for about `budgetMs`, on the helpers lane. */
  measureReading(options: { budgetMs: number; signal?: AbortSignal }): Promise<number>;
  /** Tokens written per second, timed for about `budgetMs`, on the helpers lane. */
  measureWriting(options: { budgetMs: number; signal?: AbortSignal }): Promise<number>;
  /** Caps the threads (1 to `info.maxThreads`) from the next evaluation on, for every call. */
  setThreads(threads: number): void;
  close(): Promise<void>;
}

export interface EmbeddedEngineOptions {
  modelPath: string;
  settings: EmbeddedLlmSettings;
  /** The most tokens one sequence needs (the config's prompt budget, fitted later). */
  maxContextTokens: number;
  /** Tells llama.cpp's own warnings and errors (never printed to the console by itself). */
  onLog?: (message: string) => void;
}

const engines = new Map<string, Promise<EmbeddedEngine>>();

/**
 * One engine per model file and runtime settings in a process: every run, role and request of
 * a server shares the loaded model and its context, and calls wait their turn per lane.
 */
export function getEmbeddedEngine(options: EmbeddedEngineOptions): Promise<EmbeddedEngine> {
  const key = `${options.modelPath}|${options.settings.threads ?? ''}|${options.settings.gpu}`;
  let engine = engines.get(key);
  if (!engine) {
    engine = createEmbeddedEngine(options).catch((error: unknown) => {
      engines.delete(key);
      throw error;
    });
    engines.set(key, engine);
  }
  return engine;
}

/** Frees every loaded model (tests, and a server that shuts down). */
export async function closeEmbeddedEngines(): Promise<void> {
  const all = [...engines.values()];
  engines.clear();
  await Promise.all(all.map(async (engine) => (await engine.catch(() => undefined))?.close()));
}

const backendNames: Readonly<Record<string, EmbeddedBackend>> = {
  false: 'CPU',
  metal: 'Metal',
  cuda: 'CUDA',
  vulkan: 'Vulkan',
};

async function createEmbeddedEngine(options: EmbeddedEngineOptions): Promise<EmbeddedEngine> {
  assertGgufModel(options.modelPath);
  const runtime = await loadLlamaRuntime();
  const started = performance.now();
  const llama = await loadLlama(runtime, options);
  const model = await llama.loadModel({ modelPath: options.modelPath });
  const ratio = estimatedPerRealToken(model);
  const maxThreads = options.settings.threads ?? Math.max(1, llama.cpuMathCores);
  // The context's thread count is capped by llama.maxThreads when it is made: the ceiling first.
  llama.maxThreads = maxThreads;
  // The small profile's window at most: a CPU reads a longer prompt for minutes, and each
  // sequence's KV cache grows with it. Memory may allow less (node-llama-cpp fits it).
  const wanted = Math.ceil(Math.min(options.maxContextTokens, smallContextTokens) / ratio);
  const contextTokens = Math.max(Math.min(model.trainContextSize, wanted), 512);
  let context: LlamaContext;
  try {
    context = await model.createContext({
      contextSize: { min: Math.min(2048, contextTokens), max: contextTokens },
      sequences: 2,
      // The ceiling; llama.maxThreads says how many of them are used (setThreads).
      threads: { ideal: maxThreads, min: 1 },
    });
  } catch (error) {
    await model.dispose();
    throw error;
  }
  // llama.cpp's threads spin-wait for each other at every token: with all cores busy, one
  // descheduled thread stalls them all. Leave a core for the rest of the machine by default.
  llama.maxThreads = options.settings.threads ?? defaultThreads(llama.cpuMathCores);
  const lanes = {
    loop: { sequence: context.getSequence(), limit: createSemaphore({ max: 1 }) },
    helpers: { sequence: context.getSequence(), limit: createSemaphore({ max: 1 }) },
  };
  const info: EmbeddedEngineInfo = {
    modelPath: options.modelPath,
    backend: backendNames[String(llama.gpu)] ?? 'CPU',
    contextTokens: context.contextSize,
    trainContextTokens: model.trainContextSize,
    threads: llama.maxThreads,
    maxThreads,
    threadsFromSetting: options.settings.threads !== undefined,
    gpuLayers: model.gpuLayers,
    loadMs: Math.round(performance.now() - started),
    estimatedPerRealToken: ratio,
  };
  const grammars = createGrammarCache(llama);
  return {
    info,
    countTokens: (text) => model.tokenize(text).length,
    generate: (request) => {
      const lane = lanes[request.lane];
      const queued = performance.now();
      return lane.limit.run(async () => {
        const queuedMs = Math.round(performance.now() - queued);
        const result = await generateOn(runtime, lane.sequence, request, await grammars.get(request.grammar));
        return { ...result, queuedMs };
      }, request.signal);
    },
    measureReading: (probe) =>
      lanes.helpers.limit.run(() => measureReading(lanes.helpers.sequence, model, probe), probe.signal),
    measureWriting: (probe) =>
      lanes.helpers.limit.run(() => measureWriting(lanes.helpers.sequence, model, probe), probe.signal),
    setThreads(threads) {
      const capped = Math.min(Math.max(1, Math.floor(threads)), maxThreads);
      llama.maxThreads = capped;
      info.threads = capped;
    },
    async close() {
      await context.dispose();
      await model.dispose();
    },
  };
}

function loadLlama(runtime: LlamaRuntime, options: EmbeddedEngineOptions): Promise<Llama> {
  const gpu = options.settings.gpu;
  return runtime.getLlama({
    gpu: gpu === 'auto' ? 'auto' : gpu === 'cpu' ? false : gpu,
    // Only the prebuilt binaries: building llama.cpp needs a compiler and a download.
    build: 'never',
    logLevel: 'warn',
    logger: (_level, message) => options.onLog?.(message.trim()),
  });
}

async function generateOn(
  runtime: LlamaRuntime,
  sequence: LlamaSequence,
  request: EmbeddedRequest,
  grammar: object | undefined,
): Promise<Omit<EmbeddedGeneration, 'queuedMs'>> {
  const evaluatedBefore = sequence.tokenMeter.usedInputTokens;
  const outputBefore = sequence.tokenMeter.usedOutputTokens;
  // A chat per call on the lane's sequence: LlamaChat reuses whatever prefix of the new prompt
  // the sequence already holds and evaluates only the rest.
  const chat = new runtime.LlamaChat({ contextSequence: sequence, autoDisposeSequence: false });
  const result = await chat.generateResponse(request.messages, {
    ...(grammar ? { grammar } : {}),
    maxTokens: request.maxTokens,
    temperature: request.temperature,
    signal: request.signal,
    // A thinking model writes no hidden reasoning before a constrained reply.
    ...(grammar ? { budgets: { thoughtTokens: 0 } } : {}),
    onTextChunk: request.onTextChunk,
  });
  const completionTokens = sequence.tokenMeter.usedOutputTokens - outputBefore;
  const evaluated = sequence.tokenMeter.usedInputTokens - evaluatedBefore;
  // The sequence now holds the prompt and the reply: what it holds minus the reply is the prompt.
  const promptTokens = Math.max(evaluated, sequence.nextTokenIndex - completionTokens);
  return {
    text: result.response,
    promptTokens,
    cachedPromptTokens: Math.max(0, promptTokens - evaluated),
    completionTokens,
    stopReason: result.metadata.stopReason,
  };
}

/** Grammars are compiled once per schema (the same few recur every step). */
function createGrammarCache(llama: Llama) {
  const cache = new Map<string, Promise<object>>();
  return {
    get(schema: GrammarSchema | undefined): Promise<object | undefined> {
      if (!schema) return Promise.resolve(undefined);
      const key = JSON.stringify(schema);
      let grammar = cache.get(key);
      if (!grammar) {
        grammar = llama.createGrammarForJsonSchema(schema);
        cache.set(key, grammar);
        grammar.catch(() => cache.delete(key));
      }
      return grammar;
    },
  };
}

/** Threads used by default: all math cores but one, at least one. */
export function defaultThreads(cpuMathCores: number): number {
  return Math.max(1, cpuMathCores - 1);
}

function estimatedPerRealToken(model: LlamaModel): number {
  const real = model.tokenize(speedPrompt).length;
  return Math.min(1, estimateTokens(speedPrompt) / Math.max(1, real));
}

/** A file that is not a GGUF model is named as such, before llama.cpp fails on it in its own words. */
function assertGgufModel(path: string): void {
  const check = checkGgufFile(path);
  if (check.ok) return;
  throw new ConfigError(
    `${path} is not a valid GGUF model: ${check.problem}; delete it and download the model again ` +
      '(deepsearch model remove <name>, then deepsearch model pull <name>)',
    { code: 'embedded_model_invalid' },
  );
}
