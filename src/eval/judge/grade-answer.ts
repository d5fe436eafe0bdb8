import * as z from 'zod';
import type { LlmCallRecord, LlmClient, TokenUsage } from '../../providers/spec/llm-client.js';
import { type Grade, grades } from '../eval-types.js';
import { gradeAnswerPrompt, gradeAnswerSystemPrompt } from './grade-answer-prompt.js';

export const gradeSchemaName = 'grade_answer';

export const gradeSchema = z.object({
  rationale: z.string().max(1000),
  grade: z.enum(grades),
});

/** Spellings small models use for the grade, mapped before validation. */
const gradeSpellings: Readonly<Record<string, Grade>> = {
  a: 'correct',
  b: 'incorrect',
  c: 'not_attempted',
  'not attempted': 'not_attempted',
  'not-attempted': 'not_attempted',
  notattempted: 'not_attempted',
};

export interface GradeResult {
  grade: Grade;
  rationale: string;
  model: string;
  usage: TokenUsage;
  /** Every request the grading took (a re-asked reply is two), for its cost. */
  calls: LlmCallRecord[];
}

/**
 * One judge call with the `judge` role, so grading can use another model than the agent.
 * Footnote markers are taken out of the answer: the judge compares claims, not citations.
 */
export async function gradeAnswer(input: {
  llm: LlmClient;
  question: string;
  target: string;
  predicted: string;
  signal?: AbortSignal;
}): Promise<GradeResult> {
  const calls: LlmCallRecord[] = [];
  const reply = await input.llm.generateObject({
    role: 'judge',
    system: gradeAnswerSystemPrompt(),
    prompt: gradeAnswerPrompt({
      question: input.question,
      target: input.target,
      predicted: input.predicted.replace(/\[\^\d+\]/g, '').trim(),
    }),
    schema: gradeSchema,
    schemaName: gradeSchemaName,
    signal: input.signal,
    keyAliases: { reasoning: 'rationale', explanation: 'rationale', verdict: 'grade' },
    repair: normaliseGrade,
    onCall: (record) => calls.push(record),
  });
  return { ...reply.object, model: reply.model, usage: reply.usage, calls };
}

function normaliseGrade(value: unknown): unknown {
  if (typeof value !== 'object' || value === null) return value;
  const record = value as Record<string, unknown>;
  if (typeof record.grade !== 'string') return value;
  const spelled = record.grade.trim().toLowerCase();
  return { ...record, grade: gradeSpellings[spelled] ?? spelled.replace(/\s+/g, '_') };
}
