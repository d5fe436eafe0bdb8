import { describe, expect, it } from 'vitest';
import { toJsonSchema } from '../../structured-output/to-json-schema.js';
import { evaluationCriteria } from './criteria.js';
import { judgeSchemas, judgeVerdict } from './judge-schemas.js';

describe('judge schemas', () => {
  it('put every analysis field before pass, so the judge measures before it decides', () => {
    const analysis = {
      definitive: [],
      freshness: ['sourceDate', 'maxAgeDays'],
      plurality: ['requiredCount', 'givenCount'],
      completeness: ['aspectsAsked', 'aspectsMissing'],
      strict: ['unsupportedClaim', 'missingPart'],
    };
    for (const criterion of evaluationCriteria) {
      const keys = Object.keys(toJsonSchema(judgeSchemas[criterion]).properties ?? {});
      expect(keys).toEqual(['think', ...analysis[criterion], 'pass', 'improvement']);
    }
  });
});

describe('judgeVerdict', () => {
  const base = { think: 'checked', improvement: 'Add more.' };

  it('strict fails only on a named unsupported claim or missing part', () => {
    const vague = judgeVerdict({ ...base, unsupportedClaim: '', missingPart: ' ', pass: false });
    expect(vague).toMatchObject({ pass: true, improvement: '' });
    const named = judgeVerdict({ ...base, unsupportedClaim: 'won in 2019', missingPart: '', pass: true });
    expect(named.pass).toBe(false);
    expect(named.reason).toContain('unsupported: "won in 2019"');
    expect(named.improvement).toBe('Add more.');
  });

  it('plurality compares the counts; completeness fails only on a missing aspect', () => {
    expect(judgeVerdict({ ...base, requiredCount: 3, givenCount: 2, pass: true })).toMatchObject({
      pass: false,
      reason: 'checked (2 given of 3 required)',
    });
    expect(judgeVerdict({ ...base, requiredCount: 3, givenCount: 3, pass: false }).pass).toBe(true);
    expect(judgeVerdict({ ...base, aspectsAsked: ['a', 'b'], aspectsMissing: [], pass: false }).pass).toBe(
      true,
    );
    expect(
      judgeVerdict({ ...base, aspectsAsked: ['area', 'population'], aspectsMissing: ['area'], pass: true }),
    ).toMatchObject({ pass: false, reason: 'checked (missing: area)' });
  });

  it("freshness keeps the judge's decision and reports the date and age it used", () => {
    const verdict = judgeVerdict({ ...base, sourceDate: '', maxAgeDays: 180, pass: false });
    expect(verdict).toEqual({
      pass: false,
      reason: 'checked (source date unknown, max age 180 days)',
      improvement: 'Add more.',
    });
  });
});
