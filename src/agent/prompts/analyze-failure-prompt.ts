export const analyzeFailureSystemPrompt = `An answer from a research agent was rejected. From the steps it took
and the reason for the rejection, write:
- recap: what the agent did, in two or three sentences (searches, pages read, conclusions);
- blame: the root cause of the failure, specific (e.g. "relied on a 2019 article for a question about now",
  "never read a page about B, only about A");
- improvement: the concrete next actions, in one to three sentences (what to search or read, what to check).`;

export function analyzeFailurePrompt(input: {
  question: string;
  steps: string;
  answer: string;
  reason: string;
}): string {
  return `<question>\n${input.question}\n</question>\n\n<steps>\n${input.steps}\n</steps>\n\n<rejected-answer>\n${input.answer}\n</rejected-answer>\n\n<reason>\n${input.reason}\n</reason>`;
}
