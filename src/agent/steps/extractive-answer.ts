import type { Reference } from '../../events/deep-search-result.js';
import type { AgentState } from '../state/agent-state.js';

const maxPassages = 2;
const passageChars = 320;

/**
 * An answer that needs no model: the passages of the pages read that best match the question,
 * each quoted word for word from its page. Used when the model could not write the final answer
 * (its server kept failing), so the run still ends with what it found. One passage per story:
 * copies of a page (page groups) are read at their original and listed in `alsoAt`.
 */
export function extractiveAnswer(
  state: AgentState,
  why: string,
): { answer: string; references: Reference[] } | undefined {
  const passages = state.pages
    .grouping()
    .groups.flatMap(({ original: page, copies }) => {
      const best = state.pages
        .snippets(page, state.question, passageChars)
        .sort((a, b) => b.score - a.score)[0];
      const text = best?.text.replace(/\s+/g, ' ').trim();
      const alsoAt = copies.map((copy) => copy.url);
      return best && text ? [{ page, text, score: best.score, alsoAt }] : [];
    })
    .sort((a, b) => b.score - a.score)
    .slice(0, maxPassages);
  if (passages.length === 0) return undefined;
  const references: Reference[] = passages.map((passage, index) => ({
    index: index + 1,
    url: passage.page.url,
    title: passage.page.title,
    quote: passage.text,
    quoteKind: 'exact',
    ...(passage.alsoAt.length ? { alsoAt: passage.alsoAt } : {}),
  }));
  const lines = passages.map((passage, index) => `> ${passage.text}[^${index + 1}]`);
  return {
    answer: `No final answer could be written (${why}). The most relevant passages found:\n\n${lines.join('\n\n')}`,
    references,
  };
}
