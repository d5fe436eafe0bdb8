import { clipText } from '../agent/clip-text.js';
import type { AgentEvent } from '../events/agent-events.js';
import { describeEvent, type EventWords } from '../events/describe-event.js';

const clip = (text: string, max = 160) => clipText(text, max);

/**
 * One progress line per thing a person following the run would want to know (a step starts, a
 * search or a read ends, a check passes or fails), in describeEvent's words as plain text;
 * undefined for token streams and usage updates, which would flood a client with notifications.
 */
export function progressMessage(event: AgentEvent): string | undefined {
  switch (event.type) {
    case 'action':
      return `step ${event.step}: ${event.action}`;
    // Research mode speaks through its persona lines; its structured events would repeat them.
    case 'research-plan':
    case 'research-hop':
    case 'coverage':
    case 'research-section':
    case 'fact-check':
    case 'run-start':
    case 'think-delta':
    case 'search-start':
    case 'read-start':
    case 'llm-call':
    case 'step-end':
    case 'answer-draft-delta':
    case 'answer-draft-reset':
      return undefined;
    default: {
      const words = describeEvent(event);
      return words && plainText(words);
    }
  }
}

function plainText(words: EventWords): string | undefined {
  switch (words.kind) {
    case 'step':
      return `${words.label}: ${clip(words.detail ?? '')}`;
    case 'search':
      return `searched ${clip(words.subject ?? '', 300)}: ${words.label}`;
    case 'read':
      return words.level === 'ok'
        ? `read ${clip(words.detail || words.subject || '', 100)}`
        : `could not read ${words.subject}`;
    case 'reflect':
      return `${words.label}s: ${(words.items ?? []).map((item) => clip(item, 80)).join('; ')}`;
    case 'code':
      return `computed ${clip(words.subject ?? '', 100)}${words.level === 'ok' ? '' : ' (failed)'}`;
    case 'check':
      return words.label;
    case 'rejected':
    case 'retry':
      return `${words.label}: ${clip(words.detail ?? '')}`;
    case 'warning':
      return `warning: ${clip(words.label)}`;
    case 'persona':
      return `${words.subject}${words.section ? ` [${clip(words.section, 60)}]` : ''}: ${clip(words.label)}`;
    case 'done':
      return words.label;
    default:
      return undefined;
  }
}
