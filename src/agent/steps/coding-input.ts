import { extractMarkdownTables } from '../../retrieval/markdown-tables.js';
import type { AgentState } from '../state/agent-state.js';

/** What the model's code receives as `input`. */
export interface CodingInput {
  /** The question this step works on. */
  question: string;
  originalQuestion: string;
  /** Answered sub-questions and earlier computations, newest first. */
  knowledge: Array<{ question: string; answer: string; urls: string[] }>;
  /** Pages read, newest first: their tables whole (markdown), then the text most relevant to the question. */
  pages: Array<{ url: string; title: string; tables: string[]; text: string }>;
}

const maxAnswerChars = 2000;
/** Room left for JSON escapes and field names, so the serialised input stays within the limit. */
const slack = 0.85;

/**
 * The gathered knowledge as the code's input, within `maxChars` of JSON: knowledge first (it is
 * short), then each page's tables and best snippets, the budget shared evenly among the pages.
 * Returns the URLs whose content went in, the sources of whatever the code computes.
 */
export function buildCodingInput(
  state: AgentState,
  question: string,
  maxChars: number,
): { input: CodingInput; urls: string[] } {
  const budget = Math.floor(maxChars * slack);
  const input: CodingInput = { question, originalQuestion: state.question, knowledge: [], pages: [] };
  let used = question.length + state.question.length;
  const urls = new Set<string>();
  const facts = state.knowledge.filter((item) => item.type === 'qa' || item.type === 'coding').reverse();
  for (const item of facts) {
    const answer = clip(item.answer, maxAnswerChars);
    const size = item.question.length + answer.length + item.urls.join(' ').length + 40;
    if (used + size > budget / 4) break;
    input.knowledge.push({ question: item.question, answer, urls: item.urls });
    used += size;
  }
  const pages = state.pages.all().sort((a, b) => b.step - a.step);
  for (const [index, page] of pages.entries()) {
    const share =
      Math.floor((budget - used) / (pages.length - index)) - page.url.length - page.title.length - 60;
    if (share < 200) continue;
    const tables = fitTables(extractMarkdownTables(page.markdown), share);
    const tableChars = tables.reduce((sum, table) => sum + table.length + 4, 0);
    const room = share - tableChars;
    const text =
      room >= 200
        ? state.pages
            .snippets(page, question, room)
            .map((snippet) => snippet.text.trim())
            .join('\n[…]\n')
        : '';
    input.pages.push({ url: page.url, title: page.title, tables, text });
    used += tableChars + text.length + page.url.length + page.title.length + 60;
    urls.add(page.url);
  }
  // Escapes can still push the JSON over: drop the oldest pages until it fits.
  while (input.pages.length > 0 && JSON.stringify(input).length > maxChars) {
    const dropped = input.pages.pop()!;
    urls.delete(dropped.url);
  }
  return { input, urls: [...urls] };
}

/** Whole tables while they fit; the first that does not is cut at a row boundary. */
function fitTables(tables: string[], budget: number): string[] {
  const kept: string[] = [];
  let left = budget;
  for (const table of tables) {
    if (table.length + 4 <= left) {
      kept.push(table);
      left -= table.length + 4;
      continue;
    }
    const rows = table.split('\n');
    let cut = '';
    for (const row of rows) {
      if (cut.length + row.length + 1 > left) break;
      cut += (cut ? '\n' : '') + row;
    }
    if (cut.split('\n').length >= 3) kept.push(cut);
    break;
  }
  return kept;
}

function clip(text: string, maxChars: number): string {
  return text.length > maxChars ? `${text.slice(0, maxChars)}…` : text;
}
