import type { Context } from 'hono';
import type * as z from 'zod';
import { InputError } from '../errors/index.js';
import type { DeepSearchRuntime } from '../runtime/create-runtime.js';
import { chatRequestSchema } from './chat-request-schema.js';
import { type RunRequest, toRunRequest } from './run-request.js';
import type { ServerEnv } from './server-env.js';

/** The body as a JSON object, or a 400 saying what is wrong with it. */
export async function readJsonObject(c: Context<ServerEnv>): Promise<Record<string, unknown>> {
  let body: unknown;
  try {
    body = JSON.parse(await c.req.text());
  } catch (error) {
    throw new InputError('the request body is not valid JSON', { code: 'invalid_json', cause: error });
  }
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    throw new InputError('the request body must be a JSON object', { code: 'invalid_json' });
  }
  return body as Record<string, unknown>;
}

/** The first schema issue as a 400 naming the field (`param`) and what is wrong with it. */
export function invalidValue(error: z.ZodError): InputError {
  const issue = error.issues[0]!;
  const param = issue.path.join('.');
  return new InputError(`${param || 'body'}: ${issue.message}`, {
    param: param || undefined,
    code: 'invalid_value',
  });
}

/** A chat request body (or one translated from another API) checked and turned into a RunRequest. */
export function parseChatRequest(
  body: Record<string, unknown>,
  options: { runtime: DeepSearchRuntime; models: readonly string[]; searchProviders: readonly string[] },
): RunRequest {
  const parsed = chatRequestSchema.safeParse(body);
  if (!parsed.success) throw invalidValue(parsed.error);
  return toRunRequest(parsed.data, {
    config: options.runtime.config,
    models: options.models,
    searchProviders: options.searchProviders,
  });
}
