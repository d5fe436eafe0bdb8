import type { AgentEvent, AgentEventBody } from './agent-events.js';
import { personaNames } from './persona-names.js';

/** What an event is about, for a surface to pick an icon, a colour or a place for it. */
export type EventKind =
  | 'part'
  | 'step'
  | 'think'
  | 'action'
  | 'search'
  | 'read'
  | 'reflect'
  | 'code'
  | 'check'
  | 'rejected'
  | 'retry'
  | 'warning'
  | 'llm-call'
  | 'usage'
  | 'draft'
  | 'persona'
  | 'plan'
  | 'hop'
  | 'coverage'
  | 'section'
  | 'fact-check'
  | 'done';

/** How it went: a surface shows ok as ✓ (green), bad as ✗ (red), warn as ! or ↳ (yellow). */
export type EventLevel = 'info' | 'ok' | 'bad' | 'warn';

/**
 * An event in words, unstyled: the one wording every surface (CLI progress, a chat client's
 * reasoning, MCP progress, the run timeline, the web page) builds its lines from, so they say the
 * same thing the same way. A surface only arranges and styles the parts.
 */
export interface EventWords {
  kind: EventKind;
  level: EventLevel;
  /** The line's words: "5 results, 4 new URLs", "step 2 (final answer)", "definitive passed". */
  label: string;
  /** What it is about: the queries as quoted, a page's URL, a check's criterion, a persona's name. */
  subject?: string;
  /** The plan section it belongs to (its id, "s1"). */
  section?: string;
  /** Longer text a surface may show, fold or clip: thinking, a reason, code, a page's title. */
  detail?: string;
  /** Lines under it: a search's failures, a reflection's sub-questions, what a section still misses. */
  items?: string[];
}

/** "1 result", "2 results". */
export function plural(count: number, one: string, many = `${one}s`): string {
  return `${count} ${count === 1 ? one : many}`;
}

/** 950, 1.2k, 3.4M. */
export function formatTokens(tokens: number): string {
  if (tokens >= 1_000_000) return `${(tokens / 1_000_000).toFixed(1)}M`;
  return tokens >= 1000 ? `${(tokens / 1000).toFixed(1)}k` : String(tokens);
}

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
      return {
        kind: 'search',
        level: 'info',
        label: `searching ${plural(event.queries.length, 'query', 'queries')}`,
        items: event.queries,
      };
    case 'search-end':
      return {
        kind: 'search',
        level: event.failures.length === 0 ? 'ok' : event.hits === 0 ? 'bad' : 'warn',
        subject: quoted(event.queries),
        label: `${plural(event.hits, 'result')}, ${plural(event.newUrls, 'new URL')}`,
        items: event.failures.map((failure) => `search failed for "${failure.query}": ${failure.error}`),
      };
    case 'read-start':
      return {
        kind: 'read',
        level: 'info',
        label: `reading ${plural(event.urls.length, 'page')}`,
        items: event.urls,
      };
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

type OtherEvent = Exclude<
  AgentEventBody,
  {
    type:
      | 'run-start'
      | 'step-start'
      | 'think-delta'
      | 'action'
      | 'search-start'
      | 'search-end'
      | 'read-start'
      | 'read-end'
      | 'reflect'
      | 'coding'
      | 'evaluation'
      | 'answer-rejected'
      | 'retry'
      | 'warning'
      | 'llm-call'
      | 'step-end'
      | 'answer-draft-delta'
      | 'answer-draft-reset'
      | 'run-end';
  }
>;

function describeResearchEvent(event: OtherEvent): EventWords | undefined {
  switch (event.type) {
    case 'persona':
      return {
        kind: 'persona',
        level: 'info',
        subject: personaNames[event.persona],
        label: event.message,
        ...(event.section ? { section: event.section } : {}),
      };
    case 'research-plan': {
      const { plan, estimate } = event;
      const questions = plan.sections.reduce((sum, section) => sum + section.questions.length, 0);
      return {
        kind: 'plan',
        level: 'info',
        subject: personaNames.strategist,
        label: `plan: ${plural(plan.sections.length, 'section')}, ${plural(questions, 'question')}, ${plural(plan.dataPoints.length, 'data point')}`,
        detail: describeEstimate(estimate),
        items: plan.sections.map((section) => section.heading),
      };
    }
    case 'research-hop':
      return {
        kind: 'hop',
        level: 'info',
        section: event.section,
        label: `hop ${event.hop}: ${plural(event.questions.length, 'question')}`,
        items: event.questions,
      };
    case 'coverage':
      return {
        kind: 'coverage',
        level: event.missing.length ? 'warn' : 'ok',
        section: event.section,
        label: `after hop ${event.hop}: ${event.covered.length} of ${event.covered.length + event.missing.length} covered`,
        items: event.missing,
      };
    case 'research-section':
      return event.state === 'written'
        ? {
            kind: 'section',
            level: 'ok',
            section: event.section,
            label: `written, citing ${plural(event.sources ?? 0, 'source')}`,
          }
        : undefined;
    case 'fact-check':
      return {
        kind: 'fact-check',
        level: event.removed ? 'bad' : 'ok',
        subject: personaNames.synthesizer,
        label: `fact-check: ${plural(event.claims, 'claim')}, ${event.supported} supported, ${event.revised} revised, ${event.removed} removed`,
      };
    // Told by the persona lines and the report itself.
    case 'stagnation':
    case 'data-point':
    case 'research-end':
    // Detail for --debug only, each surface its own (the CLI's retrieval lines).
    case 'search-plan':
    case 'url-ranking':
    // The answer itself: a surface writes it as the answer, not as progress.
    case 'answer-delta':
      return undefined;
    default:
      return unknownEvent(event);
  }
}

/** The compiler points here when an event type has no words yet. */
function unknownEvent(event: never): undefined {
  void event;
  return undefined;
}

/** The plan's estimate with the budget beside it: "~120k tokens of 1.0M budget, ~4 min of 10 min, ~40 LLM calls". */
export function describeEstimate(
  estimate: Extract<AgentEventBody, { type: 'research-plan' }>['estimate'],
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
