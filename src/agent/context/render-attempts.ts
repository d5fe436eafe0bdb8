import { estimateTokens, truncateToTokens } from '../../platform/llm-context/estimate-tokens.js';
import type { FailedAttempt } from '../state/agent-state.js';
import { fenceUntrusted } from './fence-untrusted.js';

/** Rejected answers (newest first) and the strategy learned from them, within a token budget. */
export function renderAttempts(
  attempts: readonly FailedAttempt[],
  budgetTokens: number,
): { attempts: string; strategy: string } {
  if (attempts.length === 0 || budgetTokens <= 0) return { attempts: '', strategy: '' };
  const strategyLines = attempts
    .slice()
    .reverse()
    .map((attempt) => fenceUntrusted(`- ${attempt.improvement}`))
    .filter((line) => line.length > 2);
  const strategy = truncateToTokens(strategyLines.join('\n'), Math.floor(budgetTokens / 3));
  let used = estimateTokens(strategy);
  const blocks: string[] = [];
  for (const attempt of attempts.slice().reverse()) {
    const block = [
      `<attempt step="${attempt.step}">`,
      fenceUntrusted(`Answer: ${truncateToTokens(attempt.answer, 300)}`),
      fenceUntrusted(`Rejected because: ${attempt.reason}`),
      attempt.blame ? fenceUntrusted(`Root cause: ${attempt.blame}`) : '',
      '</attempt>',
    ]
      .filter(Boolean)
      .join('\n');
    const cost = estimateTokens(block);
    if (used + cost > budgetTokens) break;
    blocks.push(block);
    used += cost;
  }
  return { attempts: blocks.join('\n'), strategy };
}
