import { describe, expect, it } from 'vitest';
import * as z from 'zod';
import { toGrammarSchema } from './to-grammar-schema.js';
import { toJsonSchema } from './to-json-schema.js';
import { toWireSchema } from './wire-schema.js';

const grammarOf = (schema: z.ZodType) => toGrammarSchema(toWireSchema(toJsonSchema(schema)));

describe('toGrammarSchema (our wire schema in node-llama-cpp’s dialect)', () => {
  it('keeps required properties only: the grammar requires every property it lists', () => {
    const schema = z.object({ code: z.string().min(1), purpose: z.string().max(300).optional() });
    expect(grammarOf(schema)).toEqual({
      type: 'object',
      properties: { code: { type: 'string', minLength: 1 } },
    });
  });

  it('writes alternatives as oneOf, constants and enums as they are', () => {
    const schema = z.object({
      step: z.discriminatedUnion('action', [
        z.object({ action: z.literal('search'), queries: z.array(z.string()).min(1).max(3) }),
        z.object({ action: z.literal('answer'), text: z.string() }),
      ]),
      range: z.enum(['none', 'week']),
    });
    expect(grammarOf(schema)).toEqual({
      type: 'object',
      properties: {
        step: {
          oneOf: [
            {
              type: 'object',
              properties: {
                action: { const: 'search' },
                queries: { type: 'array', items: { type: 'string' }, minItems: 1, maxItems: 3 },
              },
            },
            { type: 'object', properties: { action: { const: 'answer' }, text: { type: 'string' } } },
          ],
        },
        range: { enum: ['none', 'week'] },
      },
    });
  });

  it('drops what a grammar cannot hold: long repetitions, numeric bounds; keeps nullable types', () => {
    const schema = z.object({
      body: z.string().min(2500),
      source: z.number().int().min(1).max(10_000),
      date: z.string().nullable(),
    });
    expect(grammarOf(schema)).toEqual({
      type: 'object',
      properties: {
        body: { type: 'string' },
        source: { type: 'integer' },
        date: { type: ['string', 'null'] },
      },
    });
  });

  it('inlines references and keeps records open to any key', () => {
    const item = z.object({ name: z.string() });
    const schema = z.object({ first: item, second: item, counts: z.record(z.string(), z.number()) });
    const converted = toGrammarSchema({
      type: 'object',
      properties: {
        first: { $ref: '#/definitions/Item' },
        counts: toJsonSchema(schema).properties!.counts!,
      },
      required: ['first', 'counts'],
      definitions: { Item: toJsonSchema(item) },
    });
    expect(converted).toEqual({
      type: 'object',
      properties: {
        first: { type: 'object', properties: { name: { type: 'string' } } },
        counts: { type: 'object', additionalProperties: { type: 'number' } },
      },
    });
    expect(() => toGrammarSchema({ $ref: '#/definitions/Missing' })).toThrow(
      'the JSON schema reference #/definitions/Missing cannot be resolved',
    );
  });
});
