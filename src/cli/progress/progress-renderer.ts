import type { AgentEvent } from '../../events/agent-events.js';
import { describeEvent, type EventWords } from '../../events/describe-event.js';
import { clipLine, formatTokens, type Terminal } from '../io/terminal-style.js';
import { createPartLabels, labelledTerminal } from './part-labels.js';
import { renderRetrievalDebug } from './render-retrieval-debug.js';

export { describeEstimate } from '../../events/describe-event.js';

/**
 * Turns agent events into lines a person can follow: each step's action, queries, pages read,
 * a short line of thinking, and tokens used so far. With `debug`, also query dedup and rewrites
 * and the URL ranking with its reasons. The words are describeEvent's; this only lays them out
 * and colours them.
 */
export function createProgressRenderer(
  base: Terminal,
  options: { debug?: boolean } = {},
): (event: AgentEvent) => void {
  const { style } = base;
  const width = base.width - 8;
  const partOf = createPartLabels();
  // A step's line is written once its action is known, so a failed first call leaves only the
  // error; per run id, as a research task's sections step at once.
  const pending = new Map<string, Extract<AgentEvent, { type: 'step-start' }>>();
  // A draft answer grows on one line while the model writes it (terminals only): the run writing it.
  let drafting: string | undefined;
  return (event) => {
    if (drafting && (event.type !== 'answer-draft-delta' || event.runId !== drafting)) {
      base.partial?.('\n');
      drafting = undefined;
    }
    const part = partOf(event);
    const terminal = part ? labelledTerminal(base, part) : base;
    switch (event.type) {
      case 'step-start':
        pending.set(event.runId, event);
        return;
      case 'search-plan':
      case 'url-ranking':
        if (options.debug) renderRetrievalDebug(event, terminal);
        return;
      case 'action': {
        const started = pending.get(event.runId);
        const label = started?.final ? 'final answer' : event.action;
        const header = `${style('cyan', `[${part ? `${part}·` : ''}${event.step}]`)} ${style('bold', label)}`;
        const tokens = started ? style('dim', ` (${formatTokens(started.promptTokens)} prompt tokens)`) : '';
        terminal.write(
          `${header}${tokens} ${style('dim', clipLine(event.think, width - label.length - 24))}`,
        );
        pending.delete(event.runId);
        return;
      }
      case 'answer-draft-delta':
        if (!terminal.partial) return;
        if (!drafting) terminal.partial(indent(style('dim', '✎ ')));
        terminal.partial(style('dim', event.delta.replace(/\s+/g, ' ')));
        drafting = event.runId;
        return;
      // Nothing to show: the answer goes to stdout, the rest is in other lines or in --json.
      case 'run-start':
      case 'think-delta':
      case 'search-start':
      case 'read-start':
      case 'run-end':
        return;
      default: {
        const words = describeEvent(event);
        if (words) renderWords(words, terminal, { width, debug: options.debug ?? false });
      }
    }
  };
}

const indent = (text: string) => `    ${text}`;

/** One event's words as the terminal shows them: marks and colours by level, long text clipped. */
function renderWords(
  words: EventWords,
  terminal: Terminal,
  options: { width: number; debug: boolean },
): void {
  const { style } = terminal;
  const { width } = options;
  const mark = words.level === 'ok' ? style('green', '✓') : style('red', '✗');
  const line = (text: string) => terminal.write(indent(text));
  const warning = (text: string) => line(style('yellow', clipLine(`↳ ${text}`, width)));
  switch (words.kind) {
    case 'search':
      line(clipLine(`↳ ${words.subject} → ${words.label}`, width));
      for (const item of words.items ?? []) warning(item);
      return;
    case 'read':
      line(
        words.level === 'ok'
          ? `${mark} ${clipLine(`${words.subject} (${words.label})`, width)}`
          : `${mark} ${clipLine(`${words.subject}: ${words.label}`, width)}`,
      );
      return;
    case 'reflect':
      for (const item of words.items ?? []) line(clipLine(`↳ ${words.label}: ${item}`, width));
      return;
    case 'code':
      renderCoding(words, terminal, width);
      return;
    case 'check':
      line(`${mark} ${words.subject} ${style('dim', clipLine(words.detail ?? '', width - 20))}`);
      return;
    case 'rejected':
    case 'retry':
      warning(`${words.label}: ${words.detail}`);
      return;
    case 'warning':
      // Whole, not clipped: what the run does instead comes last, and it is what a person needs.
      line(style('yellow', `! ${words.label}`));
      if (options.debug && words.detail) line(style('dim', `  ${words.detail}`));
      return;
    case 'llm-call':
      if (options.debug) line(style('dim', words.label));
      return;
    case 'usage':
      line(style('dim', words.label));
      return;
    case 'draft':
      if (terminal.partial)
        line(style('dim', `✎ ${words.label}: ${clipLine(words.detail ?? '', width - 20)}`));
      return;
    case 'persona':
      terminal.write(
        `${style('magenta', words.subject ?? '')}${words.section ? style('dim', ` [${words.section}]`) : ''} ${clipLine(words.label, width - 24)}`,
      );
      return;
    case 'plan':
      terminal.write(`${style('magenta', words.subject ?? '')} ${clipLine(words.label, width - 24)}`);
      if (words.detail) line(style('dim', words.detail));
      return;
    case 'fact-check':
      terminal.write(`${style('magenta', words.subject ?? '')} ${words.label}`);
      return;
    // Research's hops, coverage and sections are told by its persona lines.
    default:
      return;
  }
}

const maxCodeLines = 12;

/** The code as the model wrote it (dim, first lines), then its result; a failure comes as a warning. */
function renderCoding(words: EventWords, terminal: Terminal, width: number): void {
  const { style } = terminal;
  terminal.write(indent(clipLine(`↳ code: ${words.subject}`, width)));
  const lines = (words.detail ?? '').replace(/\s+$/, '').split('\n');
  for (const line of lines.slice(0, maxCodeLines))
    terminal.write(style('dim', `      ${clipLine(line, width - 2)}`));
  if (lines.length > maxCodeLines)
    terminal.write(style('dim', `      … ${lines.length - maxCodeLines} more lines`));
  if (words.level === 'ok') terminal.write(indent(`${style('green', '✓')} ${clipLine(words.label, width)}`));
}
