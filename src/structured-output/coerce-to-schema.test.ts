import { describe, expect, it } from 'vitest';
import * as z from 'zod';
import { coerceToSchema } from './coerce-to-schema.js';
import { toJsonSchema } from './to-json-schema.js';

const schema = z.object({
  action: z.enum(['search', 'visit', 'answer']),
  think: z.string(),
  queries: z.array(z.string()).optional(),
  count: z.number().int().optional(),
  isFinal: z.boolean().optional(),
  nested: z.object({ urlTargets: z.array(z.string()) }).optional(),
});
const jsonSchema = toJsonSchema(schema);

function coerce(value: unknown) {
  const result = coerceToSchema(value, jsonSchema);
  return { ...result, parsed: schema.safeParse(result.value) };
}

describe('coerceToSchema', () => {
  it('leaves a valid object untouched', () => {
    const value = { action: 'search', think: 't', queries: ['a'] };
    const result = coerce(value);
    expect(result.changed).toBe(false);
    expect(result.value).toBe(value);
  });

  it('fixes enum case, string booleans and numbers, and a bare string for a list', () => {
    const result = coerce({
      action: 'Search',
      think: 't',
      queries: 'one query',
      count: '3',
      isFinal: 'true',
    });
    expect(result.changed).toBe(true);
    expect(result.parsed.success && result.parsed.data).toEqual({
      action: 'search',
      think: 't',
      queries: ['one query'],
      count: 3,
      isFinal: true,
    });
  });

  it('drops null for optional fields and maps snake_case keys', () => {
    const result = coerce({
      action: 'visit',
      think: 't',
      queries: null,
      nested: { url_targets: ['https://a.b/'] },
    });
    expect(result.parsed.success && result.parsed.data).toEqual({
      action: 'visit',
      think: 't',
      nested: { urlTargets: ['https://a.b/'] },
    });
  });

  it('unwraps an object wrapped in one extra key', () => {
    const result = coerce({ response: { action: 'answer', think: 'done' } });
    expect(result.parsed.success && result.parsed.data).toEqual({ action: 'answer', think: 'done' });
  });

  it('does not invent values it cannot fix', () => {
    const result = coerce({ action: 'fly', think: 't' });
    expect(result.parsed.success).toBe(false);
  });

  it('parses an object that arrived as a JSON string', () => {
    const result = coerce('{"action":"search","think":"x"}');
    expect(result.parsed.success).toBe(true);
  });

  it('counts no repairs for a valid reply and one per fix otherwise', () => {
    expect(coerce({ action: 'search', think: 't', queries: ['a'] }).repairs).toBe(0);
    expect(coerce({ action: 'Search', think: 't', count: '3' }).repairs).toBe(2);
  });
});

describe('coerceToSchema: shapes small models write', () => {
  const step = z.object({
    think: z.string(),
    action: z.enum(['search', 'visit', 'answer']),
    search: z.object({ queries: z.array(z.string()).min(1).max(3) }).optional(),
    visit: z.object({ targets: z.array(z.string()).min(1).max(2) }).optional(),
    answer: z
      .object({
        text: z.string().min(1),
        references: z.array(z.object({ url: z.string(), quote: z.string() })),
      })
      .optional(),
  });
  const stepJson = toJsonSchema(step);
  const fix = (value: unknown, options = {}) => {
    const result = coerceToSchema(value, stepJson, options);
    return { ...result, parsed: step.safeParse(result.value) };
  };

  it('turns a list of strings into a list of objects with one required string field', () => {
    const list = z.object({
      items: z.array(z.object({ question: z.string(), note: z.string().optional() })),
    });
    const result = coerceToSchema({ items: ['who?', 'when?'] }, toJsonSchema(list));
    expect(list.parse(result.value)).toEqual({ items: [{ question: 'who?' }, { question: 'when?' }] });
    expect(result.repairs).toBe(2);
  });

  it('cuts a list longer than maxItems to its first items', () => {
    const result = fix({ think: 't', action: 'search', search: { queries: ['a', 'b', 'c', 'd'] } });
    expect(result.parsed.data?.search?.queries).toEqual(['a', 'b', 'c']);
    expect(result.repairs).toBe(1);
  });

  it('wraps a plain string answer into its text field, with an empty list of references', () => {
    const result = fix({ think: 't', action: 'answer', answer: 'Paris is the capital.' });
    expect(result.parsed.data?.answer).toEqual({ text: 'Paris is the capital.', references: [] });
    expect(result.repairs).toBe(1);
  });

  it('does not wrap a string into an object with several required strings', () => {
    const pair = z.object({ reference: z.object({ url: z.string(), quote: z.string() }) });
    const result = coerceToSchema({ reference: 'https://a.example/' }, toJsonSchema(pair));
    expect(pair.safeParse(result.value).success).toBe(false);
  });

  it('maps key synonyms given by the request, where the schema key is absent', () => {
    const aliases = { keyAliases: { exactQuote: 'quote', urls: 'targets' } };
    const visit = fix({ think: 't', action: 'visit', visit: { urls: ['https://a.example/'] } }, aliases);
    expect(visit.parsed.data?.visit).toEqual({ targets: ['https://a.example/'] });
    const answer = fix(
      {
        think: 't',
        action: 'answer',
        answer: { text: 'x', references: [{ url: 'https://a.example/', exactQuote: 'words' }] },
      },
      aliases,
    );
    expect(answer.parsed.data?.answer?.references).toEqual([{ url: 'https://a.example/', quote: 'words' }]);
    expect(answer.repairs).toBe(1);
  });

  it('fills a missing think with an empty string', () => {
    const result = fix({ action: 'search', search: { queries: ['a'] } });
    expect(result.parsed.success).toBe(true);
    expect(result.parsed.data?.think).toBe('');
    expect(result.repairs).toBe(1);
  });
});

describe('coerceToSchema: a union of objects told apart by a constant (the nested agent step)', () => {
  const branch = <const Name extends string, T extends z.ZodType>(name: Name, payload: T) =>
    z.object({ action: z.literal(name), [name]: payload } as { action: z.ZodLiteral<Name> } & Record<
      Name,
      T
    >);
  const nested = z.object({
    think: z.string(),
    step: z.discriminatedUnion('action', [
      branch('search', z.object({ queries: z.array(z.string()).min(1).max(3) })),
      branch('visit', z.object({ targets: z.array(z.string()).min(1).max(2) })),
      branch(
        'answer',
        z.object({
          text: z.string().min(1),
          references: z.array(z.object({ source: z.number(), quote: z.string() })),
        }),
      ),
    ]),
  });
  const json = toJsonSchema(nested);
  const fix = (value: unknown) => {
    const result = coerceToSchema(value, json, { keyAliases: { urls: 'targets', answer: 'text' } });
    return { ...result, parsed: nested.safeParse(result.value) };
  };

  it('coerces into the branch the action names, not the first one', () => {
    const visit = fix({ think: 't', step: { action: 'visit', visit: { urls: 'https://a.example/' } } });
    expect(visit.parsed.data?.step).toEqual({ action: 'visit', visit: { targets: ['https://a.example/'] } });
    expect(visit.repairs).toBe(2);
    const answer = fix({ think: 't', step: { action: 'answer', answer: 'Paris.' } });
    expect(answer.parsed.data?.step).toEqual({
      action: 'answer',
      answer: { text: 'Paris.', references: [] },
    });
  });

  it("fixes the action's case and cuts a long list, leaving a valid step untouched", () => {
    const valid = { think: 't', step: { action: 'search', search: { queries: ['a'] } } };
    expect(fix(valid).value).toBe(valid);
    const sloppy = fix({ step: { action: 'SEARCH', search: { queries: ['a', 'b', 'c', 'd'] } } });
    expect(sloppy.parsed.data).toEqual({
      think: '',
      step: { action: 'search', search: { queries: ['a', 'b', 'c'] } },
    });
    expect(sloppy.repairs).toBe(3);
  });

  it('wraps a bare list or string where the payload object holds one required list', () => {
    const list = fix({ think: 't', step: { action: 'search', search: ['a', 'b'] } });
    expect(list.parsed.data?.step).toEqual({ action: 'search', search: { queries: ['a', 'b'] } });
    expect(list.repairs).toBe(1);
    const text = fix({ think: 't', step: { action: 'visit', visit: 'https://a.example/' } });
    expect(text.parsed.data?.step).toEqual({ action: 'visit', visit: { targets: ['https://a.example/'] } });
    // An object with two required fields is not guessed.
    expect(fix({ think: 't', step: { action: 'answer', answer: ['Paris.'] } }).parsed.success).toBe(false);
  });

  it('leaves an unknown action for validation to reject', () => {
    expect(fix({ think: 't', step: { action: 'fly', fly: {} } }).parsed.success).toBe(false);
  });
});

describe('length caps', () => {
  it('cuts free text over its maxLength instead of failing validation, counted as a repair', () => {
    const capped = z.object({ think: z.string().max(20), quote: z.string() });
    const long = 'a'.repeat(50);
    const result = coerceToSchema({ think: long, quote: long }, toJsonSchema(capped));
    const parsed = capped.parse(result.value);
    expect(parsed.think).toHaveLength(20);
    expect(parsed.think.endsWith('…')).toBe(true);
    expect(parsed.quote).toBe(long);
    expect(result.repairs).toBe(1);
  });
});
