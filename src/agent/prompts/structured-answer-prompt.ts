import type { Reference } from '../../events/deep-search-result.js';

/** The last call when a caller wants the answer as JSON of its own schema. */
export function structuredAnswerSystemPrompt(): string {
  return `You turn a researched answer into one JSON object that matches the given schema.

- Use only what the answer and its sources say. Never add facts.
- Where the schema asks for something the answer does not say, use null or an empty value if the schema
  allows it; otherwise give the closest value the answer supports.
- Keep URLs exactly as listed in <sources>.`;
}

export function structuredAnswerPrompt(input: {
  question: string;
  answer: string;
  references: readonly Reference[];
}): string {
  const sources = input.references
    .map(
      (reference) => `[${reference.index}] ${reference.title} <${reference.url}>\n    "${reference.quote}"`,
    )
    .join('\n');
  return `<question>\n${input.question}\n</question>\n\n<answer>\n${input.answer}\n</answer>\n\n<sources>\n${sources || '(none)'}\n</sources>`;
}
