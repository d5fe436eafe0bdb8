import { type AnswerSchema, parseAnswerSchema } from '../../agent/structured-answer.js';
import type { DeepSearchConfig } from '../../config/config-schema.js';
import { definedOnly, deriveConfig } from '../../config/derive-config.js';
import { InputError } from '../../core/errors/index.js';
import { assertFitsContext } from '../../providers/llm/assert-fits-context.js';
import {
  effectiveSearchProvider,
  missingSearchSetting,
} from '../../providers/search/search-provider-choice.js';
import type { RecordOptions } from '../../runs/run-recording.js';
import type { DeepSearchRuntime } from '../../runtime/create-runtime.js';
import { echoInput } from '../http/echo-input.js';
import { invalidValue } from '../http/read-json-object.js';
import { readAnswerSchema } from './answer-schema-limits.js';
import { type ChatTurn, messageText, splitConversation } from './chat-history.js';
import { type ChatMessage, type ChatRequest, chatRequestSchema } from './chat-request-schema.js';
import { type ChatUiTask, recognizeChatUiTask } from './chat-ui-tasks.js';
import { presetForEffort } from './reasoning-effort.js';
import { directModels, modelNotFound, researchModels, resolveModel } from './server-models.js';

/** A conversation as the LLM gets it when it is asked directly. */
export interface DirectConversation {
  system: string | undefined;
  messages: Array<{ role: 'user' | 'assistant'; content: string }>;
}

/** A validated chat request, turned into what one deep search run (or one direct call) needs. */
export interface ChatRunRequest {
  /** The model as the client named it (echoed back in responses). */
  model: string;
  /**
   * `direct`: one plain LLM call, no search (the direct model, `mode: "direct"`, a chat-UI task);
   * `research`: a research report (the research model).
   */
  mode: 'search' | 'direct' | 'research';
  /** The chat UI background task recognised in the request, if any. */
  task: ChatUiTask | undefined;
  question: string;
  history: ChatTurn[];
  direct: DirectConversation;
  config: DeepSearchConfig;
  stream: boolean;
  includeUsage: boolean;
  thinkTags: boolean;
  answerSchema: AnswerSchema | undefined;
  /** How the run is recorded in the run store (its owner and the API it came through); set by the route. */
  record?: RecordOptions;
}

export interface ChatRequestContext {
  config: DeepSearchConfig;
  models: readonly string[];
  /** Search providers a request may name. */
  searchProviders: readonly string[];
}

/** A chat request body (or one translated from another API) checked and turned into a ChatRunRequest. */
export function parseChatRequest(
  body: Record<string, unknown>,
  options: { runtime: DeepSearchRuntime; models: readonly string[]; searchProviders: readonly string[] },
): ChatRunRequest {
  const parsed = chatRequestSchema.safeParse(body);
  if (!parsed.success) throw invalidValue(parsed.error);
  return toChatRunRequest(parsed.data, {
    config: options.runtime.config,
    models: options.models,
    searchProviders: options.searchProviders,
  });
}

/** Checks what the schema cannot (model, conversation shape, provider, answer schema) and builds the run's config. */
export function toChatRunRequest(body: ChatRequest, context: ChatRequestContext): ChatRunRequest {
  const model = resolveModel(body.model, context.models);
  if (!model) throw modelNotFound(body.model, context.models);
  refuseForcedTools(body.tool_choice);
  const { question, history } = splitConversation(body.messages);
  // Before a slot is taken: runtime.ask checks again, but a 400 here costs nothing.
  assertFitsContext({ question, history, contextTokens: context.config.llm.contextTokens });
  assertSearchProvider(body.search_provider, context);
  const task = recognizeChatUiTask(body.messages);
  const direct = directModels.has(model) || body.mode === 'direct' || task !== undefined;
  const research = !direct && researchModels.has(model);
  if (research && body.response_format && body.response_format.type !== 'text') {
    throw new InputError(
      `response_format '${body.response_format.type}' is not supported by ${model}: it answers with a markdown report (its parts are in the response's deepsearch field); use the deepsearch model for JSON answers`,
      { param: 'response_format', code: 'unsupported_response_format' },
    );
  }
  return {
    model: body.model,
    mode: direct ? 'direct' : research ? 'research' : 'search',
    task,
    question,
    history,
    direct: directConversation(body.messages),
    config: runConfig(body, context.config),
    stream: body.stream === true,
    includeUsage: body.stream_options?.include_usage === true,
    thinkTags: body.think_tags === true,
    // A direct call answers in the model's own words; JSON the client asked for is asked of it there.
    answerSchema: direct || research ? undefined : answerSchemaFor(body.response_format),
  };
}

/**
 * A search provider a request names must be one the server knows and can use: an engine whose key
 * (or SearXNG instance) the server lacks is a 400 naming what to set, not a run that fails later.
 */
export function assertSearchProvider(
  provider: string | undefined,
  context: { config: DeepSearchConfig; searchProviders: readonly string[] },
): void {
  if (provider === undefined) return;
  const available = context.searchProviders;
  if (!available.includes(provider)) {
    throw new InputError(
      `unknown search provider '${echoInput(provider)}' (available: ${available.join(', ')})`,
      { param: 'search_provider', code: 'unknown_search_provider' },
    );
  }
  // Only a name the registry knows gets here, so echoing it is safe; the setting names no secret.
  const missing = missingSearchSetting(context.config, provider);
  if (!missing) return;
  const what = missing.missing === 'key' ? 'an API key' : 'a SearXNG instance';
  throw new InputError(
    `search provider '${provider}' needs ${what}, which this server does not have: set ${missing.setting} ` +
      `where the server runs, or leave search_provider out to search with the server's default ` +
      `(${effectiveSearchProvider(context.config.search)})`,
    { param: 'search_provider', code: 'search_provider_not_configured' },
  );
}

/** `auto` and `none` are fine (no tool is ever called); a choice that forces a tool cannot be honoured. */
function refuseForcedTools(choice: ChatRequest['tool_choice']): void {
  if (choice === undefined || choice === null || choice === 'auto' || choice === 'none') return;
  // An allowed-tools list in auto mode (chat nests it, Responses does not) forces nothing either.
  if (typeof choice === 'object' && choice.type === 'allowed_tools') {
    const nested = choice.allowed_tools as { mode?: unknown } | undefined;
    if ((choice.mode ?? nested?.mode) === 'auto') return;
  }
  const name = typeof choice === 'string' ? choice : choice.type;
  throw new InputError(
    `tools are not supported: this server answers with a deep search and never calls a tool, so tool_choice '${name}' cannot be honoured (send 'auto' or leave it out)`,
    { param: 'tool_choice', code: 'tools_not_supported' },
  );
}

function answerSchemaFor(format: ChatRequest['response_format']): AnswerSchema | undefined {
  // Bounded (size, depth, entries) before zod reads it: a hostile schema is a 400, never a stall.
  if (format?.type === 'json_schema')
    return readAnswerSchema({ name: format.json_schema.name, jsonSchema: format.json_schema.schema });
  // Any JSON object: what it holds is said in the question, which the structuring call sees.
  if (format?.type === 'json_object')
    return parseAnswerSchema({ name: 'answer', jsonSchema: { type: 'object' } });
  return undefined;
}

/**
 * System and developer messages become the system prompt; tool messages are left out, and so is
 * what follows the last user message (a partial reply the UI asks to continue).
 */
function directConversation(all: readonly ChatMessage[]): DirectConversation {
  const messages = all.slice(0, all.findLastIndex((message) => message.role === 'user') + 1);
  const system = messages
    .filter((message) => message.role === 'system' || message.role === 'developer')
    .map((message) => messageText(message).trim())
    .filter(Boolean)
    .join('\n\n');
  const turns = messages.flatMap((message) =>
    message.role === 'user' || message.role === 'assistant'
      ? [{ role: message.role, content: messageText(message) }]
      : [],
  );
  return { system: system || undefined, messages: turns.filter((turn) => turn.content.trim() !== '') };
}

/** The config of one run from a request's options (chat completions, responses, the async API). */
export function runConfig(
  body: Pick<
    ChatRequest,
    | 'reasoning_effort'
    | 'budget_tokens'
    | 'max_steps'
    | 'max_attempts'
    | 'no_direct_answer'
    | 'language'
    | 'search_provider'
    | 'boost_hostnames'
    | 'bad_hostnames'
    | 'only_hostnames'
    | 'since'
  >,
  base: DeepSearchConfig,
): DeepSearchConfig {
  const preset = body.reasoning_effort ? presetForEffort(body.reasoning_effort) : {};
  const limits = definedOnly({
    maxTokens: body.budget_tokens,
    maxSteps: body.max_steps,
    maxAttempts: body.max_attempts,
  });
  return deriveConfig(base, {
    budget: { ...preset, ...limits },
    agent: { noDirectAnswer: body.no_direct_answer, language: body.language },
    search: {
      provider: body.search_provider,
      boostHostnames: body.boost_hostnames,
      badHostnames: body.bad_hostnames,
      onlyHostnames: body.only_hostnames,
      since: body.since,
    },
  });
}
