import type { AnswerSchema } from '../agent/structured-answer.js';
import { budgetPresets } from '../config/budget-presets.js';
import type { DeepSearchConfig } from '../config/config-schema.js';
import { definedOnly, deriveConfig } from '../config/derive-config.js';
import { InputError } from '../errors/index.js';
import { assertFitsContext } from '../providers/llm/assert-fits-context.js';
import { readAnswerSchema } from './answer-schema-limits.js';
import { type ChatTurn, splitConversation } from './chat-history.js';
import type { ChatRequest } from './chat-request-schema.js';
import { echoInput } from './echo-input.js';
import { HttpError } from './http-error.js';

/** A validated chat request, turned into what one deep search run needs. */
export interface RunRequest {
  model: string;
  question: string;
  history: ChatTurn[];
  config: DeepSearchConfig;
  stream: boolean;
  includeUsage: boolean;
  thinkTags: boolean;
  answerSchema: AnswerSchema | undefined;
}

export interface RunRequestContext {
  config: DeepSearchConfig;
  models: readonly string[];
  /** Search providers a request may name. */
  searchProviders: readonly string[];
}

/** Checks what the schema cannot (model, conversation shape, provider, answer schema) and builds the run's config. */
export function toRunRequest(body: ChatRequest, context: RunRequestContext): RunRequest {
  if (!context.models.includes(body.model)) {
    throw new HttpError(
      `The model '${echoInput(body.model)}' does not exist (available: ${context.models.join(', ')})`,
      {
        status: 404,
        type: 'invalid_request_error',
        code: 'model_not_found',
        param: 'model',
      },
    );
  }
  const { question, history } = splitConversation(body.messages);
  // Before a slot is taken: runtime.ask checks again, but a 400 here costs nothing.
  assertFitsContext({ question, history, contextTokens: context.config.llm.contextTokens });
  const provider = body.search_provider;
  if (provider !== undefined && !context.searchProviders.includes(provider)) {
    throw new InputError(
      `unknown search provider '${echoInput(provider)}' (available: ${context.searchProviders.join(', ')})`,
      {
        param: 'search_provider',
        code: 'unknown_search_provider',
      },
    );
  }
  const format = body.response_format;
  const answerSchema =
    format?.type === 'json_schema'
      ? readAnswerSchema({ name: format.json_schema.name, jsonSchema: format.json_schema.schema })
      : undefined;
  return {
    model: body.model,
    question,
    history,
    config: runConfig(body, context.config),
    stream: body.stream === true,
    includeUsage: body.stream_options?.include_usage === true,
    thinkTags: body.think_tags === true,
    answerSchema,
  };
}

function runConfig(body: ChatRequest, base: DeepSearchConfig): DeepSearchConfig {
  const preset = body.reasoning_effort ? budgetPresets[body.reasoning_effort] : {};
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
    },
  });
}
