import { clipText } from '../../agent/clip-text.js';
import type { AgentEvent } from '../../events/agent-events.js';
import { describeEvent, type EventWords } from '../../events/describe-event.js';

const clip = (text: string, max = 200) => clipText(text, max);
const mark = (words: EventWords) => (words.level === 'ok' ? '✓' : '✗');

/**
 * The agent's progress as text a person can follow in a chat client's reasoning pane: each step,
 * its thinking, the queries, the pages read, the checks. Returns undefined for events that say
 * nothing new (usage updates, the answer itself). The words are describeEvent's, as markdown.
 */
export function describeProgress(event: AgentEvent): string | undefined {
  switch (event.type) {
    case 'think-delta':
    case 'answer-draft-delta':
      return event.delta;
    // Usage updates, debug detail and a part's start say nothing new to a reader; research's
    // hops, coverage and sections are told by its persona lines.
    case 'run-start':
    case 'search-start':
    case 'read-start':
    case 'step-end':
    case 'llm-call':
    case 'research-hop':
    case 'coverage':
    case 'research-section':
    case 'run-end':
      return undefined;
    default: {
      const words = describeEvent(event);
      return words && reasoningText(words, event.type === 'step-start' ? event.step : 0);
    }
  }
}

function reasoningText(words: EventWords, step: number): string | undefined {
  switch (words.kind) {
    case 'step':
      return `${step > 1 ? '\n' : ''}${capitalized(words.label)}: ${clip(words.detail ?? '')}\n`;
    case 'draft':
      return `\n  (${words.label}: ${clip(words.detail ?? '')})\n`;
    case 'action':
      return `\n→ ${words.label}\n`;
    case 'search':
      return `  searched ${clip(words.subject ?? '', 300)}: ${words.label}\n${(words.items ?? []).map((item) => `  ✗ ${clip(item)}\n`).join('')}`;
    case 'read':
      return words.level === 'ok'
        ? `  ✓ read ${words.detail ? `${clip(words.detail, 80)} ` : ''}<${words.subject}>\n`
        : `  ✗ could not read <${words.subject}>: ${clip(words.label)}\n`;
    case 'reflect':
      return (words.items ?? []).map((item) => `  ${words.label}: ${clip(item)}\n`).join('');
    case 'code': {
      // A failure follows as a warning line.
      const outcome = words.level === 'ok' ? `  ✓ ${clip(words.label)}\n` : '';
      return `  code for ${clip(words.subject ?? '', 120)}:\n\n\`\`\`js\n${(words.detail ?? '').trim()}\n\`\`\`\n\n${outcome}`;
    }
    case 'check':
      return `  ${mark(words)} ${words.subject} check: ${clip(words.detail ?? '')}\n`;
    case 'rejected':
    case 'retry':
      return `  ${words.label}: ${clip(words.detail ?? '')}\n`;
    case 'warning':
      return `  ! ${clip(words.label)}\n`;
    case 'persona':
      return `${words.subject}${words.section ? ` [${words.section}]` : ''}: ${clip(words.label, 400)}\n`;
    case 'plan':
      return `${words.subject}: ${words.label}; ${words.detail}\n`;
    case 'fact-check':
      return `${words.subject}: ${words.label}\n`;
    default:
      return undefined;
  }
}

function capitalized(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}
