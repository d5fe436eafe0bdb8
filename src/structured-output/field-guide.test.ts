import { describe, expect, it } from 'vitest';
import * as z from 'zod';
import { renderFieldGuide } from './field-guide.js';

const schema = z.object({
  think: z.string().max(300).describe('Why, briefly'),
  queries: z.array(z.string().max(80)).min(1).max(3).describe('Keyword queries'),
  mode: z.enum(['fast', 'deep']).describe('How hard to look'),
  hits: z.array(
    z.object({ source: z.union([z.number().int().min(1), z.string()]), note: z.string().optional() }),
  ),
  count: z.number().int(),
});

describe('renderFieldGuide', () => {
  it('lists every field on one line from the zod descriptions and limits, then the example', () => {
    const example = { think: 'x', queries: ['a b'], mode: 'fast' as const, hits: [], count: 1 };
    expect(renderFieldGuide(schema, example)).toBe(
      [
        '- think (text, at most 300 characters): Why, briefly',
        '- queries (list of 1 to 3 texts (each at most 80 characters)): Keyword queries',
        '- mode (one of: fast, deep): How hard to look',
        '- hits (list of objects)',
        '- hits[].source (whole number from 1 or text)',
        '- hits[].note (text, optional)',
        '- count (whole number)',
        'Example: {"think":"x","queries":["a b"],"mode":"fast","hits":[],"count":1}',
      ].join('\n'),
    );
  });

  it('shows a skeleton of the types when the caller gives no example', () => {
    expect(renderFieldGuide(schema).split('\n').at(-1)).toBe(
      'Example: {"think":"...","queries":["..."],"mode":"fast","hits":[{"source":0,"note":"..."}],"count":0}',
    );
  });

  it('lists each object of a union under the constant that picks it (the agent step)', () => {
    const step = z.object({
      think: z.string(),
      step: z.discriminatedUnion('action', [
        z.object({ action: z.literal('search'), search: z.object({ queries: z.array(z.string()) }) }),
        z.object({ action: z.literal('answer'), answer: z.object({ text: z.string() }) }),
      ]),
    });
    expect(renderFieldGuide(step).split('\n')).toEqual([
      '- think (text)',
      '- step (one of 2 objects, below)',
      '- step when action is "search":',
      '- step.search (object)',
      '- step.search.queries (list of texts)',
      '- step when action is "answer":',
      '- step.answer (object)',
      '- step.answer.text (text)',
      'Example: {"think":"...","step":{"action":"search","search":{"queries":["..."]}}}',
    ]);
  });
});
