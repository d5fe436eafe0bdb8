import { estimateTokens } from '../../platform/llm-context/estimate-tokens.js';
import { isDatedBefore, type RankedUrl } from '../../retrieval/rank-urls.js';
import type { AgentState } from '../state/agent-state.js';
import type { UrlRecord } from '../state/url-index.js';
import { maxUrlListEntries } from './rank-url-candidates.js';

export interface UrlList {
  text: string;
  /** URLs in displayed order, best first. */
  urls: string[];
}

/**
 * Unread URLs as ranked for the current question, weights shown, within a token budget; each by
 * its run-wide source number, which visit targets and citations use.
 */
export function renderUrlList(
  state: AgentState,
  ranking: ReadonlyArray<RankedUrl<UrlRecord>>,
  budgetTokens: number,
  options: { since?: Date } = {},
): UrlList {
  const sinceMs = options.since?.getTime();
  // URLs the user wrote in the question come first, whatever their score.
  const given = state.urls.candidates(state.visited).filter((candidate) => candidate.sources.has('question'));
  const entries = [
    ...given.map((candidate) => ({ candidate, weight: 1 })),
    ...ranking.slice(0, Math.max(0, maxUrlListEntries - given.length)),
  ];
  const lines: string[] = [];
  const urls: string[] = [];
  let used = 0;
  for (const { candidate, weight } of entries) {
    const snippet = candidate.snippet.replace(/\s+/g, ' ').slice(0, 160);
    // Said, not hidden: the person asked for pages from --since on, and this one is dated before.
    const older =
      sinceMs !== undefined && isDatedBefore(candidate.publishedAt, sinceMs)
        ? ` (dated ${candidate.publishedAt!.slice(0, 10)}: older than the time asked for)`
        : '';
    const line = `[${state.sourceNumbers.numberOf(candidate.url)}] weight ${weight.toFixed(2)} ${candidate.url}${older} "${candidate.title.slice(0, 100)}"${snippet ? `: ${snippet}` : ''}`;
    const cost = estimateTokens(line) + 1;
    if (used + cost > budgetTokens) break;
    lines.push(line);
    urls.push(candidate.url);
    used += cost;
  }
  return { text: lines.join('\n'), urls };
}
