import { unreachable } from '../../agent/unreachable.js';
import type { AgentEvent } from '../../events/agent-events.js';
import { personaNames } from '../../research/persona-names.js';
import { clipLine, formatTokens, plural, type Terminal } from '../io/terminal-style.js';
import { createPartLabels, labelledTerminal } from './part-labels.js';
import { renderRetrievalDebug } from './render-retrieval-debug.js';

/**
 * Turns agent events into lines a person can follow: each step's action, queries, pages read,
 * a short line of thinking, and tokens used so far. With `debug`, also query dedup and rewrites
 * and the URL ranking with its reasons.
 */
export function createProgressRenderer(
  base: Terminal,
  options: { debug?: boolean } = {},
): (event: AgentEvent) => void {
  const { style } = base;
  const indent = (text: string) => `    ${text}`;
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
        break;
      case 'search-plan':
      case 'url-ranking':
        if (options.debug) renderRetrievalDebug(event, terminal);
        break;
      case 'action': {
        const started = pending.get(event.runId);
        const label = started?.final ? 'final answer' : event.action;
        const header = `${style('cyan', `[${part ? `${part}·` : ''}${event.step}]`)} ${style('bold', label)}`;
        const tokens = started ? style('dim', ` (${formatTokens(started.promptTokens)} prompt tokens)`) : '';
        terminal.write(
          `${header}${tokens} ${style('dim', clipLine(event.think, width - label.length - 24))}`,
        );
        pending.delete(event.runId);
        break;
      }
      case 'search-end': {
        const queries = event.queries.map((query) => `"${query}"`).join(', ');
        terminal.write(
          indent(
            clipLine(
              `↳ ${queries} → ${plural(event.hits, 'result')}, ${plural(event.newUrls, 'new URL')}`,
              width,
            ),
          ),
        );
        for (const failure of event.failures)
          terminal.write(
            indent(
              style('yellow', clipLine(`↳ search failed for "${failure.query}": ${failure.error}`, width)),
            ),
          );
        break;
      }
      case 'read-end':
        terminal.write(
          indent(
            event.ok
              ? `${style('green', '✓')} ${clipLine(`${event.url} (${event.chars} chars${event.paywalled ? ', paywalled' : ''})`, width)}`
              : `${style('red', '✗')} ${clipLine(`${event.url}: ${event.error}`, width)}`,
          ),
        );
        break;
      case 'reflect':
        for (const question of event.questions)
          terminal.write(indent(clipLine(`↳ sub-question: ${question}`, width)));
        break;
      case 'coding':
        renderCoding(event, terminal, width);
        break;
      case 'evaluation':
        terminal.write(
          indent(
            `${event.pass ? style('green', '✓') : style('red', '✗')} ${event.criterion} ${style('dim', clipLine(event.reason, width - 20))}`,
          ),
        );
        break;
      case 'answer-rejected':
        terminal.write(
          indent(
            style(
              'yellow',
              clipLine(`↳ answer rejected (${event.attempts}): ${event.improvement || event.reason}`, width),
            ),
          ),
        );
        break;
      case 'retry':
        terminal.write(
          indent(
            style(
              'yellow',
              clipLine(
                `↳ ${event.role} call failed, retry ${event.attempt} in ${Math.round(event.delayMs)}ms: ${event.reason}`,
                width,
              ),
            ),
          ),
        );
        break;
      case 'warning':
        // Whole, not clipped: what the run does instead comes last, and it is what a person needs.
        terminal.write(indent(style('yellow', `! ${event.message.replace(/\s+/g, ' ')}`)));
        if (options.debug && event.detail) terminal.write(indent(style('dim', `  ${event.detail}`)));
        break;
      case 'llm-call':
        if (options.debug) {
          const outcome = event.outcome === 'ok' ? '' : ` (${event.outcome})`;
          terminal.write(
            indent(
              style(
                'dim',
                `${event.role} call: ${formatTokens(event.promptTokens)} in, ${formatTokens(event.completionTokens)} out, ${Math.round(event.ms)} ms${outcome}`,
              ),
            ),
          );
        }
        break;
      case 'answer-draft-delta':
        if (!terminal.partial) break;
        if (!drafting) terminal.partial(indent(style('dim', '✎ ')));
        terminal.partial(style('dim', event.delta.replace(/\s+/g, ' ')));
        drafting = event.runId;
        break;
      case 'answer-draft-reset':
        if (terminal.partial)
          terminal.write(indent(style('dim', `✎ draft discarded: ${clipLine(event.reason, width - 20)}`)));
        break;
      case 'step-end':
        terminal.write(indent(style('dim', `${formatTokens(event.usage.totalTokens)} tokens so far`)));
        break;
      case 'persona':
        terminal.write(
          `${style('magenta', personaNames[event.persona])}${event.section ? style('dim', ` [${event.section}]`) : ''} ${clipLine(event.message, width - 24)}`,
        );
        break;
      case 'research-plan': {
        const questions = event.plan.sections.reduce((sum, section) => sum + section.questions.length, 0);
        terminal.write(
          `${style('magenta', personaNames.strategist)} ${clipLine(`plan: ${plural(event.plan.sections.length, 'section')}, ${plural(questions, 'question')}, ${plural(event.plan.dataPoints.length, 'data point')}`, width - 24)}`,
        );
        terminal.write(indent(style('dim', describeEstimate(event.estimate))));
        break;
      }
      case 'fact-check':
        terminal.write(
          `${style('magenta', personaNames.synthesizer)} fact-check: ${plural(event.claims, 'claim')}, ${event.supported} supported, ${event.revised} revised, ${event.removed} removed`,
        );
        break;
      // Nothing to show: the answer goes to stdout, the rest is in other lines or in --json.
      // Research's other structured events are told by its persona lines.
      case 'coverage':
      case 'stagnation':
      case 'research-hop':
      case 'research-section':
      case 'data-point':
      case 'research-end':
      case 'run-start':
      case 'think-delta':
      case 'search-start':
      case 'read-start':
      case 'answer-delta':
      case 'run-end':
        break;
      default:
        unreachable(event);
    }
  };
}

/** The plan's estimate with the budget beside it: "~120k tokens of 1.0M budget, ~4 min of 10 min, ~40 LLM calls". */
export function describeEstimate(
  estimate: Extract<AgentEvent, { type: 'research-plan' }>['estimate'],
): string {
  const minutes = (ms: number) => `${Math.max(1, Math.round(ms / 60_000))} min`;
  const tokens = `~${formatTokens(estimate.tokens)} tokens${estimate.budgetTokens ? ` of ${formatTokens(estimate.budgetTokens)} budget` : ''}`;
  const time = `~${minutes(estimate.timeMs)}${estimate.budgetMs ? ` of ${minutes(estimate.budgetMs)}` : ''}`;
  const over =
    estimate.budgetTokens && estimate.tokens > estimate.budgetTokens
      ? ' (the budget will stop it first)'
      : '';
  return `estimate: ${tokens}, ${time}, ~${estimate.llmCalls} LLM calls${over}`;
}

const maxCodeLines = 12;

/** The code as the model wrote it (dim, first lines), then its result; a failure comes as a warning. */
function renderCoding(
  event: Extract<AgentEvent, { type: 'coding' }>,
  terminal: Terminal,
  width: number,
): void {
  const { style } = terminal;
  terminal.write(`    ${clipLine(`↳ code: ${event.purpose}`, width)}`);
  const lines = event.code.replace(/\s+$/, '').split('\n');
  for (const line of lines.slice(0, maxCodeLines))
    terminal.write(style('dim', `      ${clipLine(line, width - 2)}`));
  if (lines.length > maxCodeLines)
    terminal.write(style('dim', `      … ${lines.length - maxCodeLines} more lines`));
  if (event.ok) {
    terminal.write(
      `    ${style('green', '✓')} ${clipLine(`result: ${event.output ?? ''} (${event.ms} ms)`, width)}`,
    );
  }
}
