import { renderAnswerMarkdown } from '../agent/citations/format-footnotes.js';
import type { AgentEvent } from '../events/agent-events.js';
import type { Reference } from '../events/agent-types.js';
import type { RunRecord } from './run-record.js';

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
  lines.push('## Timeline', '', ...timeline(events), '');
  return `${lines.join('\n')}\n`;
}

function timeline(events: readonly AgentEvent[]): string[] {
  const lines: string[] = [];
  for (const event of events) {
    if (event.type === 'action')
      lines.push(`- step ${event.step}: **${event.action}** — ${event.think.replace(/\s+/g, ' ')}`);
    else if (event.type === 'search-end')
      lines.push(
        `  - searched ${event.queries.map((query) => `"${query}"`).join(', ')}: ${event.hits} results`,
      );
    else if (event.type === 'read-end')
      lines.push(
        `  - ${event.ok ? 'read' : 'could not read'} <${event.url}>${event.title ? ` (${event.title})` : ''}`,
      );
    else if (event.type === 'evaluation')
      lines.push(`  - evaluation ${event.criterion}: ${event.pass ? 'pass' : 'fail'}`);
    else if (event.type === 'warning') lines.push(`  - warning: ${event.message.replace(/\s+/g, ' ')}`);
  }
  return lines.length > 0 ? lines : ['(no events recorded)'];
}
