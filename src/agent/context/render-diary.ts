import { estimateTokens } from '../../platform/llm-context/estimate-tokens.js';
import type { DiaryEntry } from '../state/diary.js';

/**
 * The diary within a token budget: the newest entries word for word, older ones folded into
 * one summary line, so the record of what was tried never grows without bound.
 */
export function renderDiary(
  entries: readonly DiaryEntry[],
  budgetTokens: number,
  /** The run's question: entries about it don't repeat it, only sub-questions are named. */
  mainQuestion?: string,
): string {
  if (entries.length === 0 || budgetTokens <= 0) return '';
  const kept: string[] = [];
  let used = 0;
  let index = entries.length - 1;
  const summaryReserve = Math.min(200, Math.floor(budgetTokens / 4));
  for (; index >= 0; index--) {
    const line = formatEntry(entries[index]!, mainQuestion);
    const cost = estimateTokens(line) + 1;
    if (used + cost > budgetTokens - (index > 0 ? summaryReserve : 0)) break;
    kept.unshift(line);
    used += cost;
  }
  if (index < 0) return kept.join('\n');
  const summary = summarise(entries.slice(0, index + 1), Math.max(0, budgetTokens - used));
  return [summary, ...kept].filter(Boolean).join('\n');
}

function formatEntry(entry: DiaryEntry, mainQuestion: string | undefined): string {
  const about = entry.question === mainQuestion ? '' : ` for "${entry.question}"`;
  return `Step ${entry.step} (${entry.action})${about}: ${entry.note}`;
}

function summarise(entries: readonly DiaryEntry[], budgetTokens: number): string {
  if (budgetTokens < 20) return '';
  const counts = new Map<string, number>();
  for (const entry of entries) counts.set(entry.action, (counts.get(entry.action) ?? 0) + 1);
  const parts = [...counts].map(([action, count]) => `${count}× ${action}`).join(', ');
  const first = entries[0]!.step;
  const last = entries.at(-1)!.step;
  const line = `Steps ${first}-${last} (summarised): ${parts}.`;
  return estimateTokens(line) <= budgetTokens ? line : '';
}
