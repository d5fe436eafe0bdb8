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
  threads: number;
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
  /** A short fixed prompt read and a few tokens written, on the helpers lane. */
  measureSpeed(signal?: AbortSignal): Promise<{ promptPerSecond: number; outputPerSecond: number }>;
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
  // The small profile's window at most: a CPU reads a longer prompt for minutes, and each
  // sequence's KV cache grows with it. Memory may allow less (node-llama-cpp fits it).
  const wanted = Math.ceil(Math.min(options.maxContextTokens, smallContextTokens) / ratio);
  const contextTokens = Math.max(Math.min(model.trainContextSize, wanted), 512);
  let context: LlamaContext;
  try {
    context = await model.createContext({
      contextSize: { min: Math.min(2048, contextTokens), max: contextTokens },
      sequences: 2,
      ...(options.settings.threads ? { threads: options.settings.threads } : {}),
    });
  } catch (error) {
    await model.dispose();
    throw error;
  }
  const lanes = {
    loop: { sequence: context.getSequence(), limit: createSemaphore({ max: 1 }) },
    helpers: { sequence: context.getSequence(), limit: createSemaphore({ max: 1 }) },
  };
  const info: EmbeddedEngineInfo = {
    modelPath: options.modelPath,
    backend: backendNames[String(llama.gpu)] ?? 'CPU',
    contextTokens: context.contextSize,
    trainContextTokens: model.trainContextSize,
    threads: options.settings.threads ?? llama.cpuMathCores,
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
    measureSpeed: (signal) =>
      lanes.helpers.limit.run(
        async () =>
          measureSpeed(runtime, lanes.helpers.sequence, model, (await grammars.get(speedSchema))!, signal),
        signal,
      ),
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

const speedPrompt =
  'Summarise in one sentence what a deep search agent does when it searches the web, reads the pages it ' +
  'found, keeps the passages that answer the question and cites each claim to a quote from a source. ';

async function measureSpeed(
  runtime: LlamaRuntime,
  sequence: LlamaSequence,
  model: LlamaModel,
  grammar: object,
  signal: AbortSignal | undefined,
): Promise<{ promptPerSecond: number; outputPerSecond: number }> {
  await sequence.clearHistory();
  const tokens = model.tokenize(speedPrompt.repeat(4));
  const readStarted = performance.now();
  await sequence.evaluateWithoutGeneratingNewTokens(tokens);
  const readSeconds = (performance.now() - readStarted) / 1000;
  await sequence.clearHistory();
  // Writing speed from the first written token to the last, so the prompt's time is left out;
  // the grammar (as in every real call) makes the model write a few dozen tokens.
  const outputBefore = sequence.tokenMeter.usedOutputTokens;
  let firstChunk: number | undefined;
  const chat = new runtime.LlamaChat({ contextSequence: sequence, autoDisposeSequence: false });
  await chat.generateResponse([{ type: 'user', text: 'Count from one to twenty in words.' }], {
    grammar,
    maxTokens: 48,
    signal,
    onTextChunk: () => {
      firstChunk ??= performance.now();
    },
  });
  const written = sequence.tokenMeter.usedOutputTokens - outputBefore;
  const writeSeconds = (performance.now() - (firstChunk ?? performance.now())) / 1000;
  await sequence.clearHistory();
  return {
    promptPerSecond: Math.round(tokens.length / Math.max(readSeconds, 1e-3)),
    outputPerSecond: Math.round((Math.max(written - 1, 1) / Math.max(writeSeconds, 1e-3)) * 10) / 10,
  };
}

/** What measureSpeed has the model write: a string long enough to time. */
const speedSchema = { type: 'object', properties: { words: { type: 'string', minLength: 120 } } };

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
