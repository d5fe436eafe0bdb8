import * as z from 'zod';
import type { DeepSearchConfig } from '../../../config/config-schema.js';
import { definedOnly } from '../../../config/derive-config.js';
import { InputError } from '../../../core/errors/index.js';
import type { ResearchPlan } from '../../../events/research-result.js';
import { assertFitsContext } from '../../../providers/llm/assert-fits-context.js';
import { parseOutline } from '../../../research/plan/plan-object.js';
import { invalidValue } from '../../http/read-json-object.js';
import { chatRequestSchema } from '../../run-request/chat-request-schema.js';
import { presetForEffort } from '../../run-request/reasoning-effort.js';
import { assertSearchProvider, runConfig } from '../../run-request/run-request.js';

/** The run options of chat completions, with the same meaning and limits. */
const runOptionsSchema = chatRequestSchema.pick({
  reasoning_effort: true,
  budget_tokens: true,
  max_steps: true,
  max_attempts: true,
  no_direct_answer: true,
  boost_hostnames: true,
  bad_hostnames: true,
  only_hostnames: true,
  since: true,
  search_provider: true,
  language: true,
});

// Unlike chat completions (whose foreign fields a model server ignores), this API is deepsearch's
// own: a misspelt option (`budget_token`) is refused rather than run silently without it.
const question = z.string().trim().min(1, 'must be a non-empty question');
const researchRequestSchema = runOptionsSchema
  .extend({
    question,
    mode: z.enum(['search', 'research']).default('search'),
    /** An edited outline (research mode): the plan object `/research/outline` returned, or its markdown. */
    outline: z.union([z.string().max(100_000), z.record(z.string(), z.unknown())]).optional(),
  })
  .strict();

/** POST /v1/research/outline: a research topic and the options its run would have. */
const outlineRequestSchema = runOptionsSchema.extend({ question }).strict();

/** POST /v1/research/{id}/resume: only what may change for the rest of a run (its budget). */
const resumeRequestSchema = chatRequestSchema
  .pick({
    reasoning_effort: true,
    budget_tokens: true,
    max_steps: true,
    max_attempts: true,
  })
  .strict();

export interface ResearchRequest {
  question: string;
  mode: 'search' | 'research';
  /** The options as sent (they hold no secret), shown back in GET /v1/research/{id}. */
  options: Record<string, unknown>;
  config: DeepSearchConfig;
  /** The outline to follow instead of planning (research mode). */
  plan?: ResearchPlan;
}

/** A POST /v1/research body checked (400 naming the field) and turned into a run's config. */
export function parseResearchRequest(
  body: Record<string, unknown>,
  context: { config: DeepSearchConfig; searchProviders: readonly string[] },
): ResearchRequest {
  const parsed = researchRequestSchema.safeParse(body);
  if (!parsed.success) throw requestError(parsed.error, researchRequestSchema.shape);
  const { question, mode, outline, ...rest } = parsed.data;
  if (outline !== undefined && mode !== 'research')
    throw new InputError('an outline is followed by research: send mode "research" with it', {
      param: 'outline',
      code: 'invalid_outline',
    });
  assertSearchProvider(rest.search_provider, context);
  assertFitsContext({ question, contextTokens: context.config.llm.contextTokens });
  const options = Object.fromEntries(
    Object.entries(rest).filter(([key, value]) => key in runOptionsSchema.shape && value !== undefined),
  );
  const plan =
    outline === undefined ? undefined : { ...parseOutline(outline, { topic: question }), topic: question };
  return { question, mode, options, config: runConfig(rest, context.config), ...(plan ? { plan } : {}) };
}

/** A POST /v1/research/outline body: the topic and the config its research would run with. */
export function parseOutlineRequest(
  body: Record<string, unknown>,
  context: { config: DeepSearchConfig; searchProviders: readonly string[] },
): { question: string; config: DeepSearchConfig } {
  const parsed = outlineRequestSchema.safeParse(body);
  if (!parsed.success) throw requestError(parsed.error, outlineRequestSchema.shape);
  const { question, ...rest } = parsed.data;
  assertSearchProvider(rest.search_provider, context);
  assertFitsContext({ question, contextTokens: context.config.llm.contextTokens });
  return { question, config: runConfig(rest, context.config) };
}

/** The budget a resumed run gets: the request's options over the run's own. */
export function parseResumeRequest(body: Record<string, unknown>): Partial<DeepSearchConfig['budget']> {
  const parsed = resumeRequestSchema.safeParse(body);
  if (!parsed.success) throw requestError(parsed.error, resumeRequestSchema.shape);
  const { reasoning_effort: effort, budget_tokens, max_steps, max_attempts } = parsed.data;
  return {
    ...(effort ? presetForEffort(effort) : {}),
    ...definedOnly({ maxTokens: budget_tokens, maxSteps: max_steps, maxAttempts: max_attempts }),
  };
}

/** A field this endpoint does not know is named, with the ones it takes; else the field's own error. */
function requestError(error: z.ZodError, shape: Record<string, unknown>): InputError {
  const issue = error.issues[0]!;
  if (issue.code !== 'unrecognized_keys') return invalidValue(error);
  const field = issue.keys[0]!;
  return new InputError(`unknown field '${field}' (the fields are: ${Object.keys(shape).join(', ')})`, {
    param: field,
    code: 'unknown_parameter',
  });
}
