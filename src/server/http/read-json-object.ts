import type { Context } from 'hono';
import type * as z from 'zod';
import { InputError } from '../../core/errors/index.js';

/**
 * The body as a JSON object, or a 400 saying what is wrong with it. The body reader
 * (middleware/body-reader.ts) has already read it, bounded, so this only parses.
 */
export async function readJsonObject(c: Context): Promise<Record<string, unknown>> {
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
