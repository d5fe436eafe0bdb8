import { describe, expect, it } from 'vitest';
import { rewriteSchema } from '../../src/agent/steps/plan-queries.js';
import type { StructuredRequest } from '../../src/providers/spec/llm-client.js';
import { nextHopSchema } from '../../src/research/gather/next-hop-queries.js';
import {
  contradictionsSchema,
  readSidesWrittenAsText,
} from '../../src/research/write/find-contradictions.js';
import { toJsonSchema } from '../../src/structured-output/to-json-schema.js';
import { validateReply } from '../../src/structured-output/validate-reply.js';

function validate<T>(request: Pick<StructuredRequest<T>, 'schema' | 'repair'>, reply: unknown) {
  return validateReply(JSON.stringify(reply), request, toJsonSchema(request.schema));
}

describe('lists of strings where lists of single-purpose objects are asked', () => {
  it("the rewriter's queries: each string becomes a query with no time filter and the question's language", () => {
    const result = validate(
      { schema: rewriteSchema },
      { think: 'ok', queries: ['Varnholt founded', 'Kestrel Trust'] },
    );
    expect(result).toMatchObject({
      ok: true,
      object: {
        queries: [
          { query: 'Varnholt founded', timeRange: 'none', language: '' },
          { query: 'Kestrel Trust', timeRange: 'none', language: '' },
        ],
      },
    });
    expect(result.ok && result.repairs).toBe(2);
  });

  it('next-hop gaps written as strings: each is a gap with that one query', () => {
    const result = validate({ schema: nextHopSchema }, { gaps: ['heat pump sales 2024', 'installer count'] });
    expect(result).toMatchObject({
      ok: true,
      object: { gaps: [{ queries: ['heat pump sales 2024'] }, { queries: ['installer count'] }] },
    });
  });

  it('contradiction sides written as strings: the source number is read from the text', () => {
    const result = validate(
      { schema: contradictionsSchema, repair: readSidesWrittenAsText },
      {
        contradictions: [
          { topic: 'capacity', sides: ['42 MW [1]', 'Source 2: 40 MW'] },
          // No source named on one side: the disagreement cannot be placed and is left out.
          { topic: 'year', sides: ['1893', '1894 (3)'] },
          { topic: 'staff', sides: [{ claim: 'four', source: 1 }, 'five [^2]'] },
        ],
      },
    );
    expect(result).toMatchObject({
      ok: true,
      object: {
        contradictions: [
          {
            topic: 'capacity',
            sides: [
              { claim: '42 MW', source: 1 },
              { claim: '40 MW', source: 2 },
            ],
          },
          {
            topic: 'staff',
            sides: [
              { claim: 'four', source: 1 },
              { claim: 'five', source: 2 },
            ],
          },
        ],
      },
    });
  });

  it('still refuses what cannot be read: a string for an object with two free-text fields', () => {
    const result = validate(
      { schema: contradictionsSchema },
      { contradictions: [{ topic: 't', sides: ['a', 'b'] }] },
    );
    expect(result.ok).toBe(false);
  });
});
