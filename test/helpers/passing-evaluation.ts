/**
 * Fake-LLM routes for an evaluator that finds the question simple (no freshness, plurality,
 * completeness or strict check) and passes the answer on the definitive check: what most e2e
 * runs need once the agent has answered.
 */
export function passingEvaluation<Reply>(reply: (object: unknown) => Reply, think = 'Direct.') {
  return {
    evaluation_criteria: [
      reply({
        think: 'simple',
        needsFreshness: false,
        needsPlurality: false,
        needsCompleteness: false,
        needsStrict: false,
      }),
    ],
    evaluate_definitive: [reply({ think, pass: true, improvement: '' })],
  };
}
