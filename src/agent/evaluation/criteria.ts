import * as z from 'zod';

export const evaluationCriteria = ['definitive', 'freshness', 'plurality', 'completeness', 'strict'] as const;
export type EvaluationCriterion = (typeof evaluationCriteria)[number];

export const criteriaChoiceSchema = z.object({
  think: z.string().max(400).describe('One sentence on what kind of question this is'),
  needsFreshness: z.boolean().describe('The answer depends on information that changes within a year'),
  needsPlurality: z.boolean().describe('The question asks for several items'),
  needsCompleteness: z.boolean().describe('The question names several aspects or entities to cover'),
  needsStrict: z.boolean().describe('A hard, multi-step question where a shallow answer is likely wrong'),
});

export const criteriaChoiceExample: z.infer<typeof criteriaChoiceSchema> = {
  think: 'Asks who holds a role now: recent information matters.',
  needsFreshness: true,
  needsPlurality: false,
  needsCompleteness: false,
  needsStrict: false,
};

export const failureAnalysisSchema = z.object({
  recap: z.string().max(800).describe('What the agent did, step by step, in two to four sentences'),
  blame: z.string().max(400).describe('The step or choice that led to the rejected answer'),
  improvement: z.string().max(400).describe('What to do differently next time, concretely'),
});

export const failureAnalysisExample: z.infer<typeof failureAnalysisSchema> = {
  recap: 'Searched for the ceremony, read one page, answered with the film but not its director.',
  blame: 'Answered before reading the page that names the director.',
  improvement: "Read the film's page and quote the sentence naming its director.",
};
export type FailureAnalysis = z.infer<typeof failureAnalysisSchema>;

/** Definitive always comes first; strict, the harshest, last. */
export function criteriaFrom(choice: z.infer<typeof criteriaChoiceSchema>): EvaluationCriterion[] {
  const criteria: EvaluationCriterion[] = ['definitive'];
  if (choice.needsFreshness) criteria.push('freshness');
  if (choice.needsPlurality) criteria.push('plurality');
  if (choice.needsCompleteness) criteria.push('completeness');
  if (choice.needsStrict) criteria.push('strict');
  return criteria;
}
