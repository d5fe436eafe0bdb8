import { estimateTokens } from '../../platform/llm-context/estimate-tokens.js';
import { Bm25Index, normaliseScores } from '../../retrieval/bm25.js';
import type { AgentState } from '../state/agent-state.js';
import { fenceUntrusted } from './fence-untrusted.js';
import { snippetQuery } from './semantic-snippets.js';

interface Unit {
  group: 'facts' | 'sources' | 'search';
  boost: number;
  /** Text scored against the question. */
  scoreText: string;
  render: (budgetChars: number) => string;
}

const maxPageChars = 6000;
const minPageChars = 800;
/** Search results are leads, not evidence: they may fill at most this share of the knowledge. */
const searchShare = 0.2;

export interface KnowledgeOptions {
  /** URLs shown in <url-list> this step; their search hits are not repeated. */
  listedUrls?: ReadonlySet<string>;
}

/**
 * Knowledge for one prompt: answered sub-questions, snippets of read pages selected for the
 * current question, and search results, ranked by relevance and added best-first until the
 * token budget is full. Nothing is replayed whole: a page contributes only its best snippets.
 */
export function renderKnowledge(
  state: AgentState,
  question: string,
  givenBudgetTokens: number,
  options: KnowledgeOptions = {},
): string {
  // The group tags (<facts>, <search-results>) and blank lines between units cost a little too.
  const budgetTokens = givenBudgetTokens - 24;
  if (budgetTokens <= 0) return '';
  const query = snippetQuery(state, question);
  const units = collectUnits(state, query, budgetTokens, options.listedUrls ?? new Set());
  if (units.length === 0) return '';
  const relevance = normaliseScores(new Bm25Index(units.map((unit) => unit.scoreText)).score(query));
  const order = units.map((unit, index) => ({ unit, score: relevance[index]! + unit.boost }));
  order.sort((a, b) => b.score - a.score);
  const chosen = new Map<Unit, string>();
  const searchCap = Math.floor(budgetTokens * searchShare);
  let used = 0;
  let searchUsed = 0;
  for (const { unit } of order) {
    const remaining = budgetTokens - used;
    if (remaining < 40) break;
    const isSearch = unit.group === 'search';
    const room = isSearch ? Math.min(remaining, searchCap - searchUsed) : remaining;
    if (room < 20) continue;
    const text = fitUnit(unit, room);
    if (!text) continue;
    chosen.set(unit, text);
    const cost = estimateTokens(text) + 1;
    used += cost;
    if (isSearch) searchUsed += cost;
  }
  return renderGroups(units, chosen);
}

function collectUnits(
  state: AgentState,
  query: string,
  budgetTokens: number,
  listedUrls: ReadonlySet<string>,
): Unit[] {
  const units: Unit[] = [];
  for (const item of state.knowledge) {
    const sources = item.urls.length ? `\nSources: ${item.urls.join(' ')}` : '';
    // A computed result is our own code's output, but over page data: fenced like the rest.
    const label = item.type === 'coding' ? 'Computed' : 'Q';
    const text = fenceUntrusted(`${label}: ${item.question}\nA: ${item.answer}${sources}`);
    units.push({
      group: 'facts',
      boost: item.type === 'chat-history' ? 1.5 : 1,
      scoreText: text,
      render: (budget) => clip(text, budget),
    });
  }
  const pages = state.pages.all();
  const vector = state.questionVectors.get(query);
  const perPage = Math.max(
    minPageChars,
    Math.min(maxPageChars, Math.floor((budgetTokens * 3.5) / Math.max(1, pages.length))),
  );
  const grouping = state.pages.grouping();
  for (const page of pages) {
    const best = state.pages.snippets(page, query, perPage, vector);
    // A copy of a story read elsewhere (a syndicated or mirrored text) says so: one source, not two.
    const original = grouping.groupOf(page.url)?.original;
    const copyOf =
      original && original !== page ? ` same-story-as="${state.sourceNumbers.numberOf(original.url)}"` : '';
    const header = `<source n="${state.sourceNumbers.numberOf(page.url)}" url="${page.url}" title="${escapeAttribute(page.title)}"${page.publishedAt ? ` date="${page.publishedAt}"` : ''}${copyOf}>`;
    units.push({
      group: 'sources',
      boost: 0.3,
      scoreText: `${page.title}\n${best.map((snippet) => snippet.text).join('\n')}`,
      render: (budget) => {
        const snippets =
          budget >= perPage
            ? best
            : state.pages.snippets(page, query, Math.max(0, budget - header.length - 20), vector);
        const body = fenceUntrusted(snippets.map((snippet) => snippet.text.trim()).join('\n[…]\n'));
        return body ? `${header}\n${body}\n</source>` : '';
      },
    });
  }
  const shown = new Set(listedUrls);
  for (const search of state.searches) {
    for (const hit of search.hits) {
      // A hit found by several searches is shown once.
      if (state.pages.get(hit.url) || shown.has(hit.url)) continue;
      shown.add(hit.url);
      // Numbered when shown, so a hit that never makes it into a prompt takes no number.
      const line = () =>
        fenceUntrusted(
          `- [${state.sourceNumbers.numberOf(hit.url)}] ${hit.title} (${hit.url})${hit.publishedAt ? ` [${hit.publishedAt.slice(0, 10)}]` : ''}: ${hit.snippet}`,
        );
      units.push({
        group: 'search',
        boost: 0,
        scoreText: `${hit.title} ${hit.snippet}`,
        render: (budget) => clip(line(), budget),
      });
    }
  }
  return units;
}

function fitUnit(unit: Unit, remainingTokens: number): string {
  const text = unit.render(Math.floor(remainingTokens * 3.5));
  if (!text) return '';
  if (estimateTokens(text) <= remainingTokens) return text;
  const smaller = unit.render(Math.floor(remainingTokens * 2.5));
  return smaller && estimateTokens(smaller) <= remainingTokens ? smaller : '';
}

function renderGroups(units: Unit[], chosen: Map<Unit, string>): string {
  const sections: string[] = [];
  const pick = (group: Unit['group']) =>
    units.filter((unit) => unit.group === group && chosen.has(unit)).map((unit) => chosen.get(unit)!);
  const facts = pick('facts');
  if (facts.length) sections.push(`<facts>\n${facts.join('\n\n')}\n</facts>`);
  const sources = pick('sources');
  if (sources.length) sections.push(sources.join('\n\n'));
  const search = pick('search');
  if (search.length) sections.push(`<search-results>\n${search.join('\n')}\n</search-results>`);
  return sections.join('\n\n');
}

function clip(text: string, budgetChars: number): string {
  if (text.length <= budgetChars) return text;
  return budgetChars < 80 ? '' : `${text.slice(0, budgetChars - 1)}…`;
}

function escapeAttribute(value: string): string {
  return fenceUntrusted(value.replace(/"/g, '&quot;').replace(/\s+/g, ' ').slice(0, 200));
}
