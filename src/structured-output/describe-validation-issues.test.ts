import { describe, expect, it } from 'vitest';
import * as z from 'zod';
import { describeValidationIssues } from './describe-validation-issues.js';

function problems(schema: z.ZodType, value: unknown): string {
  const result = schema.safeParse(value);
  if (result.success) throw new Error('expected a validation failure');
  return describeValidationIssues(result.error, value);
}

describe('describeValidationIssues', () => {
  const step = z.object({
    think: z.string(),
    action: z.enum(['search', 'answer']),
    search: z.object({ queries: z.array(z.string().min(1)).min(1).max(3) }).optional(),
  });

  it('says a list is too long in a sentence naming the field', () => {
    const text = problems(step, { think: 't', action: 'search', search: { queries: ['a', 'b', 'c', 'd'] } });
    expect(text).toBe("the reply's field `search.queries` must be a list of at most 3 items");
  });

  it('tells a missing field from one of the wrong type', () => {
    expect(problems(step, { action: 'search' })).toBe(
      "the reply's field `think` is missing (it must be a string)",
    );
    expect(problems(step, { think: 4, action: 'search' })).toBe(
      "the reply's field `think` must be a string, not a number",
    );
  });

  it('lists the allowed values, and says when a list or text is empty', () => {
    expect(problems(step, { think: 't', action: 'fly' })).toBe(
      'the reply\'s field `action` must be one of "search", "answer"',
    );
    expect(problems(step, { think: 't', action: 'search', search: { queries: [] } })).toBe(
      "the reply's field `search.queries` must not be an empty list",
    );
    expect(problems(step, { think: 't', action: 'search', search: { queries: [''] } })).toBe(
      "the reply's field `search.queries.0` must not be empty",
    );
  });

  it('speaks of the reply itself when the root is wrong, and keeps custom messages', () => {
    expect(problems(step, ['a'])).toBe('the reply must be an object, not a list');
    const refined = z.object({ a: z.string().optional() }).refine((value) => value.a, {
      message: 'action is "search" so the "search" object must be filled',
    });
    expect(problems(refined, {})).toBe('action is "search" so the "search" object must be filled');
  });

  it("names the allowed values of a discriminated union's tag", () => {
    const union = z.object({
      step: z.discriminatedUnion('action', [
        z.object({ action: z.literal('search'), search: z.object({}) }),
        z.object({ action: z.literal('answer'), answer: z.object({}) }),
      ]),
    });
    expect(problems(union, { step: { action: 'visit' } })).toBe(
      'the reply\'s field `step.action` must be one of "search", "answer"',
    );
  });
});
