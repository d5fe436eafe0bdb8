import { estimateTokens } from '../../providers/llm/estimate-tokens.js';
import { rankUrls } from '../../retrieval/rank-urls.js';
import type { AgentState } from '../state/agent-state.js';

export interface UrlList {
  text: string;
  /** URLs in displayed order: entry n of the list is urls[n - 1]. */
  urls: string[];
}

const maxEntries = 30;

/** Unread URLs ranked for the current question, weights shown, within a token budget. */
export function renderUrlList(state: AgentState, question: string, budgetTokens: number): UrlList {
  const candidates = state.urls.candidates(state.visited);
  // URLs the user wrote in the question come first, whatever their score.
  const given = candidates.filter((candidate) => candidate.sources.has('question'));
  const others = candidates.filter((candidate) => !candidate.sources.has('question'));
  const ranked = [
    ...given.map((candidate) => ({ candidate, weight: 1 })),
    ...rankUrls(others, `${question} ${state.question}`, { limit: maxEntries - given.length }),
  ];
  const lines: string[] = [];
  const urls: string[] = [];
  let used = 0;
  for (const { candidate, weight } of ranked) {
    const snippet = candidate.snippet.replace(/\s+/g, ' ').slice(0, 160);
    const line = `${urls.length + 1}. weight ${weight.toFixed(2)} ${candidate.url} "${candidate.title.slice(0, 100)}"${snippet ? `: ${snippet}` : ''}`;
    const cost = estimateTokens(line) + 1;
    if (used + cost > budgetTokens) break;
    lines.push(line);
    urls.push(candidate.url);
    used += cost;
  }
  return { text: lines.join('\n'), urls };
}
