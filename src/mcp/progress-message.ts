import { clipText } from '../agent/clip-text.js';
import { unreachable } from '../agent/unreachable.js';
import type { AgentEvent } from '../events/agent-events.js';
import { personaNames } from '../research/persona-names.js';

const clip = (text: string, max = 160) => clipText(text, max);

/**
 * One progress line per thing a person following the run would want to know (a step starts, a
 * search or a read ends, a check passes or fails); undefined for token streams and usage updates,
 * which would flood a client with notifications.
 */
export function progressMessage(event: AgentEvent): string | undefined {
  switch (event.type) {
    case 'step-start':
      return `step ${event.step}${event.final ? ' (final answer)' : ''}: ${clip(event.question)}`;
    case 'action':
      return `step ${event.step}: ${event.action}`;
    case 'search-end':
      return `searched ${event.queries.map((query) => `"${clip(query, 60)}"`).join(', ')}: ${event.hits} results`;
    case 'read-end':
      return event.ok ? `read ${clip(event.title || event.url, 100)}` : `could not read ${event.url}`;
    case 'reflect':
      return `sub-questions: ${event.questions.map((question) => clip(question, 80)).join('; ')}`;
    case 'coding':
      return `computed ${clip(event.purpose, 100)}${event.ok ? '' : ' (failed)'}`;
    case 'evaluation':
      return `${event.criterion} check ${event.pass ? 'passed' : 'failed'}`;
    case 'answer-rejected':
      return `answer rejected: ${clip(event.improvement || event.reason)}`;
    case 'retry':
      return `${event.role} call failed, retrying (${event.attempt})`;
    case 'warning':
      return `warning: ${clip(event.message)}`;
    case 'run-end':
      return 'done';
    // Research mode speaks through its persona lines; its structured events would repeat them.
    case 'persona':
      return `${personaNames[event.persona]}${event.section ? ` [${clip(event.section, 60)}]` : ''}: ${clip(event.message)}`;
    case 'research-plan':
    case 'coverage':
    case 'stagnation':
    case 'research-hop':
    case 'research-section':
    case 'data-point':
    case 'fact-check':
    case 'research-end':
    case 'run-start':
    case 'think-delta':
    case 'search-plan':
    case 'url-ranking':
    case 'search-start':
    case 'read-start':
    case 'llm-call':
    case 'step-end':
    case 'answer-draft-delta':
    case 'answer-draft-reset':
    case 'answer-delta':
      return undefined;
    default:
      return unreachable(event);
  }
}
