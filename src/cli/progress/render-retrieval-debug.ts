import type { AgentEvent } from '../../events/agent-events.js';
import { clipLine, type Terminal } from '../io/terminal-style.js';

type RetrievalEvent = Extract<AgentEvent, { type: 'search-plan' | 'url-ranking' }>;

const shownUrls = 5;

/**
 * --debug lines for retrieval: how queries were deduped and rewritten, and the URLs offered to
 * the agent with each weight's reasons (frequency, host, path, relevance, freshness, boost,
 * trust, penalty), so a ranking can be understood.
 */
export function renderRetrievalDebug(event: RetrievalEvent, terminal: Terminal): void {
  const { style } = terminal;
  const width = terminal.width - 8;
  const line = (text: string, indent = '    ') =>
    terminal.write(`${indent}${style('dim', clipLine(text, width))}`);
  if (event.type === 'search-plan') {
    for (const duplicate of event.duplicates) {
      line(
        `· dropped "${duplicate.query}": repeats "${duplicate.of}" (cosine ${duplicate.similarity.toFixed(2)}, ${event.embedding})`,
      );
    }
    for (const item of event.rewritten) {
      const extras = [
        item.timeRange && `time ${item.timeRange}`,
        item.language && `lang ${item.language}`,
      ].filter(Boolean);
      line(`· rewritten: "${item.query}"${extras.length ? ` (${extras.join(', ')})` : ''}`);
    }
    return;
  }
  line(`· [${event.step}] ${event.candidates} URLs ranked by ${event.reranker} for "${event.question}"`);
  for (const { url, weight, reasons } of event.urls.slice(0, shownUrls)) {
    const why = Object.entries(reasons)
      .filter(([, value]) => value > 0)
      .map(([name, value]) => `${name} ${value.toFixed(2)}`)
      .join(', ');
    line(`${weight.toFixed(2)} ${url}${why ? ` (${why})` : ''}`, '      ');
  }
}
