import type { LanguageModelV3 } from '@ai-sdk/provider';
import type { DeepSearchConfig, LlmRole } from '../../config/config-schema.js';
import { resolveProxySettings } from '../../config/proxy-settings.js';
import { type ResolvedLlmSettings, resolveLlmSettings } from '../../config/resolve-llm-settings.js';
import { isProviderError, structuredOutputUnsupportedCode } from '../../core/errors/index.js';
import { createOutboundFetch } from '../../platform/http/outbound-fetch.js';
import { type ContextWindow, probeContextWindow } from '../../platform/llm-context/probe-context-window.js';
import type { StructuredMode } from '../../structured-output/structured-output-request.js';
import type {
  LlmClient,
  StructuredRequest,
  StructuredResult,
  TextRequest,
  TextResult,
} from '../spec/llm-client.js';
import { createLanguageModel, relaxedSchemaMiddleware } from './create-language-model.js';
import { defaultMaxOutputTokens } from './output-tokens.js';
import type { LlmCallEvent } from './retry-middleware.js';

export interface LlmClientOptions {
  config: DeepSearchConfig;
  /** Default: the outbound fetch with the config's proxy settings. */
  fetch?: typeof globalThis.fetch;
  /** Replaces model creation; tests pass a scripted model here. */
  createModel?: (settings: ResolvedLlmSettings) => LanguageModelV3 | Promise<LanguageModelV3>;
}

export interface DescribedRole {
  role: LlmRole;
  provider: string;
  model: string;
  baseURL: string | undefined;
  structuredOutput: StructuredMode;
}

export interface DeepSearchLlmClient extends LlmClient {
  /** Which model and output mode a role uses (for --debug); resolves settings, never a key. */
  describe(role: LlmRole): DescribedRole;
  /**
   * The context window the server gives a role's model, asked once per model with a short
   * timeout; undefined for hosted providers, injected models, and servers that don't say.
   */
  contextWindow(role: LlmRole, signal?: AbortSignal): Promise<ContextWindow | undefined>;
}

interface RoleState {
  settings: ResolvedLlmSettings;
  model: Promise<LanguageModelV3> | undefined;
}

/**
 * The AI SDK loads on the first structured call, not when a runtime is made (deepsearch read,
 * search); the modules are then kept, as an import() per call resolves them again (a few percent
 * of a whole reply's CPU). A load that failed is tried again by the next call.
 */
const loadStructuredModules = () =>
  Promise.all([
    import('../../structured-output/generate-structured-output.js'),
    import('./retry-middleware.js'),
  ]);
let structuredLoad: ReturnType<typeof loadStructuredModules> | undefined;
function structuredModules() {
  structuredLoad ??= loadStructuredModules().catch((error: unknown) => {
    structuredLoad = undefined;
    throw error;
  });
  return structuredLoad;
}

/**
 * Per-role models, made on first use. In `auto` output mode a server that rejects JSON-schema
 * responses is remembered and asked in prompt mode from then on.
 */
export function createLlmClient(options: LlmClientOptions): DeepSearchLlmClient {
  const roles = new Map<LlmRole, RoleState>();
  const promptOnly = new Set<string>();
  const noStreaming = new Set<string>();
  const windows = new Map<string, Promise<ContextWindow | undefined>>();
  const knownWindows = new Map<string, number>();
  /** Structured calls in flight now: past llm.maxStreamingCalls, replies are asked whole. */
  let inFlight = 0;
  const fetch = options.fetch ?? createOutboundFetch({ proxy: resolveProxySettings(options.config) });
  const make =
    options.createModel ??
    ((settings) => createLanguageModel(settings, { fetch, contextTokens: options.config.llm.contextTokens }));

  const stateFor = (role: LlmRole): RoleState => {
    let state = roles.get(role);
    if (!state) {
      state = { settings: resolveLlmSettings(options.config, role), model: undefined };
      roles.set(role, state);
    }
    return state;
  };
  const modelKey = (settings: ResolvedLlmSettings) =>
    `${settings.provider}|${settings.baseURL}|${settings.model}`;
  const modeFor = (settings: ResolvedLlmSettings): StructuredMode => {
    if (settings.structuredOutput === 'prompt' || promptOnly.has(modelKey(settings))) return 'prompt';
    return 'json-schema';
  };

  const contextTokensFor = (settings: ResolvedLlmSettings) =>
    Math.min(
      options.config.llm.contextTokens,
      knownWindows.get(modelKey(settings)) ?? Number.POSITIVE_INFINITY,
    );
  const modelFor = (state: RoleState): Promise<LanguageModelV3> => {
    // Shared by concurrent first calls; a failure (missing key) is not cached.
    state.model ??= Promise.resolve(make(state.settings)).catch((error: unknown) => {
      state.model = undefined;
      throw error;
    });
    return state.model;
  };

  return {
    specificationVersion: 'v1',
    contextWindow(role, signal) {
      const { settings } = stateFor(role);
      if (settings.provider === 'local-embedded' && !options.createModel) {
        const window = embeddedWindow(settings, options.config.llm.contextTokens).then((found) => {
          knownWindows.set(modelKey(settings), found.tokens);
          return found;
        });
        return untilAborted(window, signal);
      }
      // Only self-hosted servers describe their window; an injected model has no server to ask.
      if (settings.provider !== 'openai-compatible' || !settings.baseURL || options.createModel) {
        return Promise.resolve(undefined);
      }
      const key = modelKey(settings);
      let window = windows.get(key);
      if (!window) {
        window = probeContextWindow({
          baseURL: settings.baseURL,
          model: settings.model,
          apiKey: settings.apiKey,
          fetch,
        }).then((found) => {
          if (found) knownWindows.set(key, found.tokens);
          return found;
        });
        windows.set(key, window);
      }
      return untilAborted(window, signal);
    },
    describe(role) {
      const { settings } = stateFor(role);
      return {
        role,
        provider: settings.provider,
        model: settings.model,
        baseURL: settings.baseURL,
        structuredOutput: modeFor(settings),
      };
    },
    async generateText(request: TextRequest): Promise<TextResult> {
      const state = stateFor(request.role);
      const model = await modelFor(state);
      const { generatePlainText } = await import('./generate-plain-text.js');
      return generatePlainText(request, {
        model,
        temperature: state.settings.temperature,
        maxOutputTokens: state.settings.maxOutputTokens,
        timeoutMs: state.settings.timeoutMs,
        maxRetries: state.settings.maxRetries,
        errorContext: state.settings,
      });
    },
    async generateObject<T>(request: StructuredRequest<T>): Promise<StructuredResult<T>> {
      const state = stateFor(request.role);
      const model = await modelFor(state);
      const key = modelKey(state.settings);
      const [{ generateStructuredOutput }, { createRetryMiddleware, toLlmError }] = await structuredModules();
      const limits = {
        timeoutMs: state.settings.timeoutMs,
        maxRetries: state.settings.maxRetries,
        errorContext: state.settings,
      };
      // A busy process asks for whole replies: a streamed one costs about twice the CPU (the SDK's
      // web streams and per-chunk parsing), and its queue needs it more than a draft shown live.
      // The streamed field's text still comes out, in one delta when the reply is whole.
      const streaming = inFlight < options.config.llm.maxStreamingCalls;
      const call = (mode: StructuredMode) =>
        generateStructuredOutput({
          request,
          model,
          mode,
          temperature: request.temperature ?? state.settings.temperature,
          maxOutputTokens:
            state.settings.maxOutputTokens ??
            defaultMaxOutputTokens(request.role, contextTokensFor(state.settings)),
          abortSignal: request.signal,
          canStream: streaming && !noStreaming.has(key),
          source: { providerId: `llm:${state.settings.provider}`, model: state.settings.model },
          middleware: (restarted) => [
            relaxedSchemaMiddleware,
            createRetryMiddleware(limits, toRequestCallbacks(request, state.settings.model, restarted)),
          ],
          report: (event) => {
            if (event.type === 'reply')
              request.onCall?.({ role: request.role, model: state.settings.model, ...event.record });
            else if (event.type === 'retry') request.onRetry?.(event.notice);
            else noStreaming.add(key);
          },
        }).catch((error: unknown) => {
          throw toLlmError(error, limits, request.signal);
        });
      const mode = modeFor(state.settings);
      inFlight++;
      try {
        return await call(mode);
      } catch (error) {
        const unsupported = isProviderError(error) && error.code === structuredOutputUnsupportedCode;
        if (!unsupported || mode === 'prompt' || state.settings.structuredOutput !== 'auto') throw error;
        promptOnly.add(key);
        return await call('prompt');
      } finally {
        inFlight--;
      }
    },
  };
}

/**
 * The retry middleware's events as the request's callbacks: a failed HTTP request is reported once
 * to `onCall` (a reply is reported by the engine, which knows whether it validated); a retry resets
 * the streamed field first, then tells `onRetry`.
 */
function toRequestCallbacks(
  request: StructuredRequest<unknown>,
  model: string,
  restarted: () => void,
): (event: LlmCallEvent) => void {
  return (event) => {
    if (event.type === 'retry') {
      restarted();
      request.onRetry?.(event.notice);
      return;
    }
    request.onCall?.({
      role: request.role,
      model,
      promptTokens: 0,
      completionTokens: 0,
      ms: Math.round(event.ms),
      outcome: 'error',
      estimated: false,
      repairs: 0,
      error: event.error.message,
    });
  };
}

/** The embedded model's window: loading the model here is no extra cost, the run needs it next. */
async function embeddedWindow(settings: ResolvedLlmSettings, contextTokens: number): Promise<ContextWindow> {
  const { embeddedContextWindow, embeddedEngineFor } = await import('./embedded-language-model.js');
  return embeddedContextWindow(await embeddedEngineFor(settings, { maxContextTokens: contextTokens }));
}

/** A cancelled caller stops waiting for the shared probe (which others may still await): undefined at once. */
function untilAborted<T>(
  promise: Promise<T | undefined>,
  signal: AbortSignal | undefined,
): Promise<T | undefined> {
  if (!signal) return promise;
  if (signal.aborted) return Promise.resolve(undefined);
  return new Promise((resolve, reject) => {
    const onAbort = () => resolve(undefined);
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(
      (value) => {
        signal.removeEventListener('abort', onAbort);
        resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(error);
      },
    );
  });
}
