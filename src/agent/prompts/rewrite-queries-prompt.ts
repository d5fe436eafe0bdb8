export function rewriteQueriesSystemPrompt(input: { today: string; maxQueries: number }): string {
  return `You turn a research agent's search requests into the web search queries most likely to find the answer.
Today is ${input.today}.

For the requests given, write at most ${input.maxQueries} queries in total:
- Search-engine style: the key terms, not a sentence ("Parasite Cannes premiere date", not "when did Parasite premiere?").
- Expand across intents: the literal fact, the official or primary source, a list or table that holds it, a recent
  report on it. Different queries must ask different things; never two rewordings of one query.
- Expand across languages: when the subject belongs to a country or language (a local law, company, person, place),
  add one query in that language, and give its BCP 47 code in "language" (e.g. "fr", "ja").
- Keep names, numbers, versions, model names and symbols exactly as written: "iPhone 15" is not "iPhone 16", "C#" is not "C".
- Time filter: set "timeRange" to hour, day, week, month or year only when the answer depends on recent events
  (news, prices, "latest", "current", this year's results); otherwise "none".
- Do not add facts you are not sure of; do not answer the question.`;
}

export function rewriteQueriesPrompt(input: { question: string; queries: readonly string[] }): string {
  const requests = input.queries.map((query) => `- ${query}`).join('\n');
  return `<question>\n${input.question}\n</question>\n\n<search-requests>\n${requests}\n</search-requests>`;
}
