import * as z from 'zod';
import type { EvaluationCriterion } from './criteria.js';

/**
 * One reply shape per judge. The analysis fields come before `pass` so the judge writes down what
 * it measured (dates, counts, aspects, the unsupported claim) before it decides: a model that
 * decides first and reasons after rationalises. Free text is capped so a small model cannot ramble
 * into the output limit.
 */
const think = z.string().max(600).describe('Your reasoning in one to three sentences');
const pass = z.boolean().describe('true if the answer meets this check');
const improvement = z
  .string()
  .max(400)
  .describe('When failing: what the agent must find, check or add to pass. Empty when passing.');

const definitiveSchema = z.object({ think, pass, improvement });

const freshnessSchema = z.object({
  think,
  sourceDate: z
    .string()
    .max(40)
    .describe(
      'Date of the newest source or dated fact the answer relies on (YYYY-MM-DD), "" when none is given',
    ),
  maxAgeDays: z
    .number()
    .int()
    .min(0)
    .describe('The oldest acceptable age in days for this kind of fact; 0 when age does not matter'),
  pass,
  improvement,
});

const pluralitySchema = z.object({
  think,
  requiredCount: z.number().int().min(0).describe('How many items the question asks for'),
  givenCount: z.number().int().min(0).describe('How many distinct items the answer gives'),
  pass,
  improvement,
});

const completenessSchema = z.object({
  think,
  aspectsAsked: z.array(z.string().max(120)).max(12).describe('Each aspect or entity the question names'),
  aspectsMissing: z
    .array(z.string().max(120))
    .max(12)
    .describe('Those the answer does not address; [] when none'),
  pass,
  improvement,
});

const strictSchema = z.object({
  think,
  unsupportedClaim: z
    .string()
    .max(300)
    .describe(
      'The answer\'s most important claim that its quotes do not support, word for word; "" when none',
    ),
  missingPart: z
    .string()
    .max(300)
    .describe('A part of the question the answer does not answer; "" when none'),
  pass,
  improvement,
});

export const judgeSchemas = {
  definitive: definitiveSchema,
  freshness: freshnessSchema,
  plurality: pluralitySchema,
  completeness: completenessSchema,
  strict: strictSchema,
} satisfies Record<EvaluationCriterion, z.ZodType>;

/** One example reply per judge, shown with its field guide. */
export const judgeExamples: Record<EvaluationCriterion, JudgeReply> = {
  definitive: { think: 'States one director plainly.', pass: true, improvement: '' },
  freshness: {
    think: 'An office holder; the source is from last year.',
    sourceDate: '2025-03-02',
    maxAgeDays: 180,
    pass: false,
    improvement: 'Find a source from the last six months and write "as of <date>".',
  },
  plurality: {
    think: 'Asks for three novels; two are named.',
    requiredCount: 3,
    givenCount: 2,
    pass: false,
    improvement: 'Find and name a third novel.',
  },
  completeness: {
    think: 'Asks for population and area of both countries.',
    aspectsAsked: ['Norway population', 'Norway area', 'Sweden population', 'Sweden area'],
    aspectsMissing: ['Sweden area'],
    pass: false,
    improvement: "Find Sweden's area.",
  },
  strict: {
    think: 'Each claim has a quote; the question is fully answered.',
    unsupportedClaim: '',
    missingPart: '',
    pass: true,
    improvement: '',
  },
};

export type JudgeReply = z.infer<(typeof judgeSchemas)[EvaluationCriterion]>;

export interface JudgeVerdict {
  pass: boolean;
  /** Why, with the analysis the judge wrote (dates, counts, missing aspects, the claim). */
  reason: string;
  improvement: string;
}

/**
 * The verdict, held to the judge's own analysis: plurality fails only when fewer items are given
 * than required, completeness only when an aspect is missing, strict only on a named unsupported
 * claim or missing part. A "fail" with nothing named is a vague harshness that burned attempts on
 * good answers; the judge's `pass` is kept for definitive and freshness, which have no count.
 */
export function judgeVerdict(reply: JudgeReply): JudgeVerdict {
  const analysis = analysisOf(reply);
  const reason = analysis ? `${reply.think} (${analysis})` : reply.think;
  let passed = reply.pass;
  if ('requiredCount' in reply) passed = reply.givenCount >= reply.requiredCount;
  if ('aspectsMissing' in reply) passed = reply.aspectsMissing.length === 0;
  if ('unsupportedClaim' in reply) passed = !reply.unsupportedClaim.trim() && !reply.missingPart.trim();
  return { pass: passed, reason, improvement: passed ? '' : reply.improvement };
}

function analysisOf(reply: JudgeReply): string {
  if ('sourceDate' in reply) {
    return `source date ${reply.sourceDate || 'unknown'}, max age ${reply.maxAgeDays ? `${reply.maxAgeDays} days` : 'none'}`;
  }
  if ('requiredCount' in reply) return `${reply.givenCount} given of ${reply.requiredCount} required`;
  if ('aspectsMissing' in reply) {
    return reply.aspectsMissing.length ? `missing: ${reply.aspectsMissing.join(', ')}` : 'nothing missing';
  }
  if ('unsupportedClaim' in reply) {
    return [
      reply.unsupportedClaim && `unsupported: "${reply.unsupportedClaim}"`,
      reply.missingPart && `missing: ${reply.missingPart}`,
    ]
      .filter(Boolean)
      .join('; ');
  }
  return '';
}
