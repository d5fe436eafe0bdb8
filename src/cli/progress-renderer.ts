import type { AgentEvent } from '../agent/agent-events.js';
import { clipLine, formatTokens, type Terminal } from './terminal-style.js';

/**
 * Turns agent events into lines a person can follow: each step's action, queries, pages read,
 * a short line of thinking, and tokens used so far.
 */
export function createProgressRenderer(terminal: Terminal): (event: AgentEvent) => void {
  const { style } = terminal;
  const indent = (text: string) => `    ${text}`;
  const width = terminal.width - 8;
  return (event) => {
    switch (event.type) {
      case 'run-start':
        terminal.write(style('bold', `Q: ${event.question}`));
        break;
      case 'step-start':
        terminal.write(
          style('cyan', `[${event.step}]${event.final ? ' final answer' : ''}`) +
            style('dim', ` ${formatTokens(event.promptTokens)} prompt tokens`),
        );
        break;
      case 'action':
        terminal.write(indent(`${style('bold', event.action)} ${style('dim', clipLine(event.think, width - event.action.length))}`));
        break;
      case 'search-end': {
        const queries = event.queries.map((query) => `"${query}"`).join(', ');
        terminal.write(indent(clipLine(`↳ ${queries} → ${event.hits} results, ${event.newUrls} new URLs`, width)));
        for (const failure of event.failures) terminal.write(indent(style('yellow', clipLine(`↳ search failed for "${failure.query}": ${failure.error}`, width))));
        break;
      }
      case 'read-end':
        terminal.write(
          indent(
            event.ok
              ? `${style('green', '✓')} ${clipLine(`${event.url} (${event.chars} chars)`, width)}`
              : `${style('red', '✗')} ${clipLine(`${event.url}: ${event.error}`, width)}`,
          ),
        );
        break;
      case 'reflect':
        for (const question of event.questions) terminal.write(indent(clipLine(`↳ sub-question: ${question}`, width)));
        break;
      case 'evaluation':
        terminal.write(indent(`${event.pass ? style('green', '✓') : style('red', '✗')} ${event.criterion} ${style('dim', clipLine(event.reason, width - 20))}`));
        break;
      case 'answer-rejected':
        terminal.write(indent(style('yellow', clipLine(`↳ answer rejected (${event.attempts}): ${event.improvement || event.reason}`, width))));
        break;
      case 'retry':
        terminal.write(indent(style('yellow', clipLine(`↳ ${event.role} call failed, retry ${event.attempt} in ${Math.round(event.delayMs)}ms: ${event.reason}`, width))));
        break;
      case 'warning':
        terminal.write(indent(style('yellow', clipLine(`! ${event.message}`, width))));
        break;
      case 'step-end':
        terminal.write(indent(style('dim', `${formatTokens(event.usage.totalTokens)} tokens so far`)));
        break;
      default:
        break;
    }
  };
}
