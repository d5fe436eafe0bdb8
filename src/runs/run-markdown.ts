import { renderAnswerMarkdown } from '../agent/citations/format-footnotes.js';
import type { AgentEvent } from '../events/agent-events.js';
import type { Reference } from '../events/deep-search-result.js';
import type { RunRecord } from './run-record.js';
import { runTimeline } from './run-timeline.js';

/**
 * A run as a markdown document: the question, the answer with its footnotes (a research run: its
 * report as written), the sources with their quotes, what the agent did step by step, and what
 * it cost.
 */
export function runMarkdown(record: RunRecord, events: readonly AgentEvent[]): string {
  const lines: string[] = [`# ${record.question.replace(/\s+/g, ' ')}`, ''];
  lines.push(
    `- run: \`${record.id}\``,
    `- status: ${record.status}`,
    `- started: ${new Date(record.createdAt).toISOString()}`,
  );
  const usage = record.usage;
  if (usage) {
    const cost = usage.costUsd === null ? 'unknown' : `$${usage.costUsd.toFixed(4)}`;
    lines.push(
      `- tokens: ${usage.totalTokens} (${usage.promptTokens} in, ${usage.completionTokens} out), cost ${cost}`,
    );
  }
  lines.push('');
  const result = record.result as {
    answer?: string;
    references?: Reference[];
    confidence?: string;
    markdown?: string;
  } | null;
  if (typeof result?.markdown === 'string' && !result.answer)
    lines.push('## Report', '', result.markdown, '');
  else if (result?.answer) {
    lines.push('## Answer', '', renderAnswerMarkdown(result.answer, result.references ?? []), '');
    if (result.confidence) lines.push(`Confidence: ${result.confidence}`, '');
    if (result.references?.length) {
      lines.push('## Sources', '');
      for (const reference of result.references)
        lines.push(
          `${reference.index}. [${reference.title || reference.url}](${reference.url}): "${reference.quote.replace(/\s+/g, ' ')}"`,
        );
      lines.push('');
    }
  } else if (record.error) lines.push('## Error', '', record.error.message, '');
  lines.push('## Timeline', '', ...runTimeline(events), '');
  return `${lines.join('\n')}\n`;
}
