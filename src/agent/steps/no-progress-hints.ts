import { urlKey } from '../../retrieval/normalize-url.js';
import { searchWordsOf, stem } from '../../retrieval/tokenize.js';
import type { RunContext } from '../run-context.js';

const maxPages = 3;
const maxWords = 6;

/**
 * The best pages not read yet, as the model cites them (`[n] url "title"`), from this step's
 * <url-list> (best first); empty when none is left.
 */
export function unreadPages(context: RunContext, offered: readonly string[]): string[] {
  const { state } = context;
  return offered
    .filter((url) => {
      const key = urlKey(url);
      return key !== undefined && !state.visited.has(key);
    })
    .slice(0, maxPages)
    .map((url) => {
      const title = state.urls.get(url)?.title.replace(/\s+/g, ' ').slice(0, 80);
      return `[${state.sourceNumbers.numberOf(url)}] ${url}${title ? ` "${title}"` : ''}`;
    });
}

/**
 * What the searches so far have not tried, in words a model can act on: the question's own words
 * (and its sub-questions') that no query used, and the best unread pages. Never empty: without
 * anything specific it names the kinds of words that find a missing fact.
 */
export function untriedAngles(context: RunContext, offered: readonly string[]): string {
  const { state } = context;
  const used = new Set(state.searches.flatMap((search) => searchWordsOf(search.query).map(stem)));
  const unused = (text: string) => searchWordsOf(text).filter((word) => !used.has(stem(word)));
  const words = [...new Set(unused(state.question))].slice(0, maxWords);
  const subQuestions = state.gaps.allQuestions.slice(1).filter((question) => unused(question).length > 1);
  const angles: string[] = [];
  if (words.length > 0)
    angles.push(`words of the question no query used yet: ${words.map((word) => `"${word}"`).join(', ')}`);
  for (const question of subQuestions.slice(-2)) angles.push(`the sub-question "${question}"`);
  const pages = unreadPages(context, offered);
  if (pages.length > 0)
    angles.push(`${angles.length > 0 ? 'or ' : ''}read an unread page: ${pages.join(', ')}`);
  if (angles.length === 0)
    angles.push(
      'other words for what is still missing (a name, a date, a place, a title), a narrower query about one fact, or the language of the place the question is about',
    );
  return `Untried angles: ${angles.join('; ')}.`;
}
