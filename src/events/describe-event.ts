import type { AgentEvent, AgentEventBody } from './agent-events.js';
import { describeResearchEvent } from './describe-research-event.js';
import { type EventWords, formatTokens, plural } from './event-words.js';

export { describeEstimate } from './describe-research-event.js';
export * from './event-words.js';

const quoted = (queries: readonly string[]) => queries.map((query) => `"${query}"`).join(', ');

/**
 * The words of an event; undefined for the ones no surface tells in words (the answer's own text,
 * research's structured events its persona lines already tell, the debug-only retrieval details).
 */
export function describeEvent(event: AgentEventBody | AgentEvent): EventWords | undefined {
  switch (event.type) {
    case 'run-start':
      return describePart(event);
    case 'step-start':
      return {
        kind: 'step',
        level: 'info',
        label: `step ${event.step}${event.final ? ' (final answer)' : ''}`,
        detail: event.question,
      };
    case 'think-delta':
      return { kind: 'think', level: 'info', label: 'thinking', detail: event.delta };
    case 'action':
      return { kind: 'action', level: 'info', label: event.action, detail: event.think };
    case 'search-start':
      return starting('search', plural(event.queries.length, 'query', 'queries'), event.queries);
    case 'search-end':
      return {
        kind: 'search',
        level: event.failures.length === 0 ? 'ok' : event.hits === 0 ? 'bad' : 'warn',
        subject: quoted(event.queries),
        label: `${plural(event.hits, 'result')}, ${plural(event.newUrls, 'new URL')}`,
        items: event.failures.map((failure) => `search failed for "${failure.query}": ${failure.error}`),
      };
    case 'read-start':
      return starting('read', plural(event.urls.length, 'page'), event.urls);
    case 'read-end':
      return {
        kind: 'read',
        level: event.ok ? 'ok' : 'bad',
        subject: event.url,
        label: event.ok
          ? `${event.chars} chars${event.paywalled ? ', paywalled' : ''}`
          : (event.error ?? 'failed'),
        ...(event.title ? { detail: event.title } : {}),
      };
    case 'reflect':
      return { kind: 'reflect', level: 'info', label: 'sub-question', items: event.questions };
    case 'coding':
      return {
        kind: 'code',
        level: event.ok ? 'ok' : 'bad',
        subject: event.purpose,
        // A failure follows as a warning event.
        label: event.ok ? `result: ${event.output ?? ''} (${event.ms} ms)` : 'failed',
        detail: event.code,
      };
    case 'evaluation':
      return {
        kind: 'check',
        level: event.pass ? 'ok' : 'bad',
        subject: event.criterion,
        label: `${event.criterion} check ${event.pass ? 'passed' : 'failed'}`,
        detail: event.reason,
      };
    case 'answer-rejected':
      return {
        kind: 'rejected',
        level: 'warn',
        label: `answer rejected (${event.attempts})`,
        detail: event.improvement || event.reason,
      };
    case 'retry':
      return {
        kind: 'retry',
        level: 'warn',
        label: `${event.role} call failed, retry ${event.attempt} in ${Math.round(event.delayMs)}ms`,
        detail: event.reason,
      };
    case 'warning':
      return {
        kind: 'warning',
        level: 'warn',
        label: event.message.replace(/\s+/g, ' '),
        ...(event.detail ? { detail: event.detail } : {}),
      };
    case 'llm-call': {
      const outcome = event.outcome === 'ok' ? '' : ` (${event.outcome})`;
      return {
        kind: 'llm-call',
        level: event.outcome === 'ok' ? 'info' : 'warn',
        label: `${event.role} call: ${formatTokens(event.promptTokens)} in, ${formatTokens(event.completionTokens)} out, ${Math.round(event.ms)} ms${outcome}`,
      };
    }
    case 'step-end':
      return {
        kind: 'usage',
        level: 'info',
        label: `${formatTokens(event.usage.totalTokens)} tokens so far`,
      };
    case 'answer-draft-delta':
      return { kind: 'draft', level: 'info', label: 'draft', detail: event.delta };
    case 'answer-draft-reset':
      return { kind: 'draft', level: 'warn', label: 'draft discarded', detail: event.reason };
    case 'run-end':
      return { kind: 'done', level: 'ok', label: 'done' };
    default:
      return describeResearchEvent(event);
  }
}

/** Searches or reads begin: "searching 2 queries", "reading 3 pages", each one as an item. */
function starting(kind: 'search' | 'read', what: string, items: string[]): EventWords {
  return { kind, level: 'info', label: `${kind === 'search' ? 'searching' : 'reading'} ${what}`, items };
}

/** A part of a larger task starts: a research section's hop, or the verification of a claim. */
function describePart(event: Extract<AgentEventBody, { type: 'run-start' }>): EventWords | undefined {
  if (!event.parentRunId && !event.part) return undefined;
  const what =
    event.part?.purpose === 'verification'
      ? 'verification'
      : event.part?.hop !== undefined
        ? `hop ${event.part.hop}`
        : 'section question';
  return {
    kind: 'part',
    level: 'info',
    label: what,
    detail: event.question,
    ...(event.part?.section ? { section: event.part.section } : {}),
  };
}
