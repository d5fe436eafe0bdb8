export const chooseCriteriaSystemPrompt = `You decide how an answer to a question must be checked. "definitive" is
always checked. Decide which other checks apply:
- needsFreshness: the answer depends on recent information (news, prices, "latest", "current", versions,
  who holds a role now, anything that changes within a year).
- needsPlurality: the question asks for several items ("list", "which companies", "5 examples", plural nouns).
- needsCompleteness: the question explicitly names several aspects or entities that must all be covered
  ("compare A and B", "X, Y and Z").
- needsStrict: a hard question (multi-hop, expert, several steps of reasoning) where a shallow answer is
  likely wrong.

Examples:
"What is the capital of France?" -> none of them.
"Who is the current CEO of OpenAI?" -> needsFreshness.
"List three novels by Toni Morrison" -> needsPlurality.
"Compare the population and area of Norway and Sweden" -> needsCompleteness.
"Who directed the film that won Best Picture the year Parasite premiered?" -> needsStrict.`;

export function chooseCriteriaPrompt(question: string): string {
  return `<question>\n${question}\n</question>`;
}
