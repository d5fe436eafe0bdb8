import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { coerceToSchema } from './coerce-to-schema.js';
import { toJsonSchema } from './generate-structured.js';

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
});
