import { describe, expect, it } from 'vitest';
import { findInfiniteSchema } from './finite-schema.js';

describe('findInfiniteSchema', () => {
  it('finds schemas no finite value satisfies', () => {
    expect(findInfiniteSchema({ $ref: '#' })).toBe('#');
    expect(findInfiniteSchema({ type: 'object', properties: { a: { $ref: '#' } }, required: ['a'] })).toBe(
      '#/properties/a',
    );
    expect(
      findInfiniteSchema({
        $defs: { 'a/b': { $ref: '#/$defs/c' }, c: { $ref: '#/$defs/a~1b' } },
        $ref: '#/$defs/c',
      }),
    ).toBe('#');
    expect(findInfiniteSchema({ type: 'array', minItems: 1, items: { $ref: '#' } })).toBe('#/items');
    expect(findInfiniteSchema({ allOf: [{ type: 'object' }, { $ref: '#' }] })).toBe('#/allOf/1');
    expect(findInfiniteSchema({ anyOf: [{ $ref: '#' }, false] })).toBe('#/anyOf/0');
  });

  it('passes recursive schemas with a way out, and what it cannot judge', () => {
    expect(findInfiniteSchema({ type: 'object', properties: { a: { $ref: '#' } } })).toBeUndefined();
    expect(findInfiniteSchema({ type: 'array', items: { $ref: '#' } })).toBeUndefined();
    expect(findInfiniteSchema({ anyOf: [{ type: 'string' }, { $ref: '#' }] })).toBeUndefined();
    expect(
      findInfiniteSchema({
        type: 'object',
        properties: { node: { $ref: '#/$defs/n' } },
        required: ['node'],
        $defs: {
          n: {
            oneOf: [
              { type: 'null' },
              { type: 'object', properties: { next: { $ref: '#/$defs/n' } }, required: ['next'] },
            ],
          },
        },
      }),
    ).toBeUndefined();
    expect(findInfiniteSchema({ $ref: 'https://example.com/other.json' })).toBeUndefined();
    expect(findInfiniteSchema({ type: 'string' })).toBeUndefined();
  });
});
