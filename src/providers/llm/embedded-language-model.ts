import type {
  LanguageModelV3,
  LanguageModelV3CallOptions,
  LanguageModelV3GenerateResult,
  LanguageModelV3Prompt,
  LanguageModelV3StreamPart,
  LanguageModelV3Usage,
} from '@ai-sdk/provider';
import type { LlmRole } from '../../config/config-schema.js';
import type { ResolvedLlmSettings } from '../../config/resolve-llm-settings.js';
import { ConfigError } from '../../core/errors/index.js';
import {
  type EmbeddedEngine,
  type EmbeddedGeneration,
  type EmbeddedLane,
  getEmbeddedEngine,
} from '../../embedded-model/embedded-engine.js';
import { type ChatHistoryItem, loadLlamaRuntime } from '../../embedded-model/load-llama-runtime.js';
import { createModelStore, isModelPath } from '../../embedded-model/model-store.js';
import type { ContextWindow } from '../../platform/llm-context/probe-context-window.js';
import type { JsonSchemaNode } from '../../structured-output/coerce-to-schema.js';
import { toGrammarSchema } from '../../structured-output/to-grammar-schema.js';

/** The provider name the AI SDK sees; usage and errors name it. */
export const embeddedProviderName = 'local-embedded';

/** The agent's steps and the forced answer share the lane that keeps their system prompt cached. */
const loopRoles: ReadonlySet<LlmRole> = new Set(['agent', 'beast']);

/** The engine a role's settings name: the model file resolved, loaded once per process. */
export function embeddedEngineFor(
  settings: ResolvedLlmSettings,
  options: { maxContextTokens: number; onLog?: (message: string) => void },
): Promise<EmbeddedEngine> {
  // The runtime first: a missing runtime is the thing to fix before a model is worth downloading.
  return loadLlamaRuntime().then(() => {
    const modelPath = resolveModelPath(settings);
    return getEmbeddedEngine({ modelPath, settings: settings.embedded, ...options });
  });
}

function resolveModelPath(settings: ResolvedLlmSettings): string {
  const modelsDir = settings.embedded.modelsDir;
  if (!modelsDir && !isModelPath(settings.model)) {
    // The library has no data directory of its own (the CLI fills it from XDG_DATA_HOME).
    throw new ConfigError(
      `the local model ${settings.model} is looked up in llm.embedded.modelsDir, which is not set: set it, ` +
        'or set llm.model to the path of a .gguf file',
      { code: 'embedded_model_missing' },
    );
  }
  return createModelStore({ modelsDir: modelsDir ?? '' }).resolve(settings.model);
}

/** The window the loaded model gives, in the prompt budget's (estimated) tokens. */
export async function embeddedContextWindow(engine: EmbeddedEngine): Promise<ContextWindow> {
  const { contextTokens, estimatedPerRealToken } = engine.info;
  return {
    tokens: Math.floor(contextTokens * estimatedPerRealToken),
    source: `the embedded model's context of ${contextTokens} tokens`,
    chosenByProvider: true,
  };
}

/**
 * The in-process model as an AI SDK model, so that every call goes through the same path as
 * the other providers (retries, validation and re-asks, streamed answer drafts, usage records).
 * A JSON response format becomes a grammar: the model can only write what the schema allows.
 */
export function createEmbeddedLanguageModel(input: {
  settings: ResolvedLlmSettings;
  engine: () => Promise<EmbeddedEngine>;
}): LanguageModelV3 {
  const lane: EmbeddedLane = loopRoles.has(input.settings.role) ? 'loop' : 'helpers';
  const run = async (options: LanguageModelV3CallOptions, onTextChunk?: (text: string) => void) => {
    const engine = await input.engine();
    const format = options.responseFormat;
    return engine.generate({
      lane,
      messages: toChatHistory(options.prompt),
      ...(format?.type === 'json' && format.schema
        ? { grammar: toGrammarSchema(format.schema as JsonSchemaNode) }
        : {}),
      maxTokens: options.maxOutputTokens,
      temperature: options.temperature,
      signal: options.abortSignal,
      onTextChunk,
    });
  };
  return {
    specificationVersion: 'v3',
    provider: embeddedProviderName,
    modelId: input.settings.model,
    supportedUrls: {},
    async doGenerate(options): Promise<LanguageModelV3GenerateResult> {
      const result = await run(options);
      return {
        content: [{ type: 'text', text: result.text }],
        finishReason: finishReason(result),
        usage: toUsage(result),
        warnings: [],
      };
    },
    async doStream(options) {
      const stream = new ReadableStream<LanguageModelV3StreamPart>({
        start(controller) {
          controller.enqueue({ type: 'stream-start', warnings: [] });
          controller.enqueue({ type: 'text-start', id: '0' });
          run(options, (delta) => controller.enqueue({ type: 'text-delta', id: '0', delta })).then(
            (result) => {
              controller.enqueue({ type: 'text-end', id: '0' });
              controller.enqueue({
                type: 'finish',
                finishReason: finishReason(result),
                usage: toUsage(result),
              });
              controller.close();
            },
            (error: unknown) => {
              controller.enqueue({ type: 'error', error });
              controller.close();
            },
          );
        },
      });
      return { stream };
    },
  };
}

function toChatHistory(prompt: LanguageModelV3Prompt): ChatHistoryItem[] {
  return prompt.map((message): ChatHistoryItem => {
    if (message.role === 'system') return { type: 'system', text: message.content };
    const text = message.content.map((part) => (part.type === 'text' ? part.text : '')).join('');
    return message.role === 'assistant' ? { type: 'model', response: [text] } : { type: 'user', text };
  });
}

function finishReason(result: EmbeddedGeneration): LanguageModelV3GenerateResult['finishReason'] {
  return { unified: result.stopReason === 'maxTokens' ? 'length' : 'stop', raw: result.stopReason };
}

function toUsage(result: EmbeddedGeneration): LanguageModelV3Usage {
  return {
    inputTokens: {
      total: result.promptTokens,
      noCache: result.promptTokens - result.cachedPromptTokens,
      cacheRead: result.cachedPromptTokens,
      cacheWrite: undefined,
    },
    outputTokens: { total: result.completionTokens, text: result.completionTokens, reasoning: undefined },
  };
}
