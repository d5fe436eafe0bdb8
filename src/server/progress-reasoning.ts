import { clipText } from '../agent/clip-text.js';
import { unreachable } from '../agent/unreachable.js';
import type { AgentEvent } from '../events/agent-events.js';
import { personaNames } from '../research/persona-names.js';

const clip = (text: string, max = 200) => clipText(text, max);

/**
 * The agent's progress as text a person can follow in a chat client's reasoning pane: each step,
 * its thinking, the queries, the pages read, the checks. Returns undefined for events that say
 * nothing new (usage updates, the answer itself).
 */
export function describeProgress(event: AgentEvent): string | undefined {
  switch (event.type) {
    case 'step-start':
      return `${event.step > 1 ? '\n' : ''}Step ${event.step}${event.final ? ' (final answer)' : ''}: ${clip(event.question)}\n`;
    case 'think-delta':
    case 'answer-draft-delta':
      return event.delta;
    case 'answer-draft-reset':
      return `\n  (draft discarded: ${clip(event.reason)})\n`;
    case 'action':
      return `\n→ ${event.action}\n`;
    case 'search-end': {
      const failures = event.failures.map(
        (failure) => `  ✗ search failed for "${clip(failure.query, 80)}": ${clip(failure.error)}\n`,
      );
      const queries = event.queries.map((query) => `"${clip(query, 80)}"`).join(', ');
      const hits = `${event.hits} result${event.hits === 1 ? '' : 's'}`;
      const newUrls = `${event.newUrls} new URL${event.newUrls === 1 ? '' : 's'}`;
      return `  searched ${queries}: ${hits}, ${newUrls}\n${failures.join('')}`;
    }
    case 'read-end':
      return event.ok
        ? `  ✓ read ${event.title ? `${clip(event.title, 80)} ` : ''}<${event.url}>\n`
        : `  ✗ could not read <${event.url}>: ${clip(event.error ?? 'failed')}\n`;
    case 'reflect':
      return event.questions.map((question) => `  sub-question: ${clip(question)}\n`).join('');
    case 'coding': {
      // A failure follows as a warning line.
      const outcome = event.ok ? `  ✓ result: ${clip(event.output ?? '')}\n` : '';
      return `  code for ${clip(event.purpose, 120)}:\n\n\`\`\`js\n${event.code.trim()}\n\`\`\`\n\n${outcome}`;
    }
    case 'evaluation':
      return `  ${event.pass ? '✓' : '✗'} ${event.criterion} check: ${clip(event.reason)}\n`;
    case 'answer-rejected':
      return `  answer rejected (${event.attempts}): ${clip(event.improvement || event.reason)}\n`;
    case 'retry':
      return `  ${event.role} call failed, retry ${event.attempt}: ${clip(event.reason)}\n`;
    case 'warning':
      return `  ! ${clip(event.message)}\n`;
    case 'persona':
      return `${personaNames[event.persona]}${event.section ? ` [${event.section}]` : ''}: ${clip(event.message, 400)}\n`;
    case 'research-plan': {
      const { plan, estimate } = event;
      const questions = plan.sections.reduce((sum, section) => sum + section.questions.length, 0);
      return `${personaNames.strategist}: plan of ${plan.sections.length} sections, ${questions} questions, ${plan.dataPoints.length} data points; estimate ~${Math.round(estimate.tokens / 1000)}k tokens${estimate.budgetTokens ? ` (budget ${Math.round(estimate.budgetTokens / 1000)}k)` : ''}, ~${Math.max(1, Math.round(estimate.timeMs / 60_000))} min\n`;
    }
    case 'fact-check':
      return `${personaNames.synthesizer}: fact-check: ${event.claims} claims, ${event.supported} supported, ${event.revised} revised, ${event.removed} removed\n`;
    // Usage updates, the answer itself and debug detail say nothing new to a reader; research's
    // other structured events are told by its persona lines.
    case 'coverage':
    case 'stagnation':
    case 'research-hop':
    case 'research-section':
    case 'data-point':
    case 'research-end':
    case 'run-start':
    case 'search-plan':
    case 'url-ranking':
    case 'search-start':
    case 'read-start':
    case 'step-end':
    case 'llm-call':
    case 'answer-delta':
    case 'run-end':
      return undefined;
    default:
      return unreachable(event);
  }
}
