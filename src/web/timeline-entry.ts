import { plural } from '../events/describe-event.js';
import { personaNames } from '../events/persona-names.js';
import type { RunEvent } from './api-client.js';
import { hostOf } from './footnotes.js';

export type EntryKind =
  | 'step'
  | 'think'
  | 'search'
  | 'read'
  | 'reflect'
  | 'code'
  | 'check'
  | 'persona'
  | 'warning'
  | 'plan';

/** One line of the timeline; an event with the same key updates the line instead of adding one. */
export interface TimelineEntry {
  key: string;
  kind: EntryKind;
  title: string;
  /** Longer text shown collapsed (thinking, code, reasons). */
  detail?: string;
  /** Append to the existing entry's detail instead of replacing it (streamed thinking). */
  appendDetail?: boolean;
  items?: Array<{ text: string; href?: string; note?: string }>;
  tone?: 'ok' | 'bad';
}

const str = (value: unknown): string => (typeof value === 'string' ? value : '');
const strings = (value: unknown): string[] =>
  Array.isArray(value) ? value.filter((item): item is string => typeof item === 'string') : [];

/** What the run showed so far that later events refer to. */
export interface TimelineContext {
  /** Research events name a section by its plan id ("s1"); the plan gave it a heading. */
  sectionHeadings?: ReadonlyMap<string, string>;
}

/**
 * What the page's timeline shows for an event; null for events that only feed the gauge or the
 * answer. The page's own wording (titles, links, folded detail) over the events as they come from
 * the server, unchecked JSON: the other surfaces word typed events with events/describe-event.ts.
 * Keys carry the event's run id: research sections run as deep searches of their own, whose step
 * numbers start again at 1.
 */
export function timelineEntry(event: RunEvent, context: TimelineContext = {}): TimelineEntry | null {
  const entry = describeBody(event, context);
  return entry && { ...entry, key: `${str(event.runId)}:${entry.key}` };
}

/** Host and path, the way a person tells pages of one site apart: "en.example.org/wiki/Paris". */
export function shortUrl(url: string): string {
  try {
    const parsed = new URL(url);
    const path = parsed.pathname === '/' ? '' : parsed.pathname.replace(/\/$/, '');
    const text = `${hostOf(url)}${path}`;
    return text.length > 60 ? `${text.slice(0, 59)}…` : text;
  } catch {
    return url;
  }
}

function describeBody(event: RunEvent, context: TimelineContext): TimelineEntry | null {
  const step = typeof event.step === 'number' ? event.step : 0;
  const sectionOf = (value: unknown) => context.sectionHeadings?.get(str(value)) ?? str(value);
  switch (event.type) {
    case 'run-start': {
      // A research section's own deep search (a hop), or a claim's verification: a divider naming its question.
      const part = event.part as { purpose?: unknown; hop?: unknown } | undefined;
      if (!event.parentRunId) return null;
      const title =
        part?.purpose === 'verification'
          ? `Verifying: ${str(event.question)}`
          : typeof part?.hop === 'number'
            ? `Hop ${part.hop}: ${str(event.question)}`
            : `Section question: ${str(event.question)}`;
      return { key: 'run', kind: 'step', title };
    }
    case 'step-start':
      return {
        key: `step-${step}`,
        kind: 'step',
        title: `Step ${step}${event.final ? ' (final answer)' : ''}`,
      };
    case 'think-delta':
      return {
        key: `think-${step}`,
        kind: 'think',
        title: 'Thinking…',
        detail: str(event.delta),
        appendDetail: true,
      };
    case 'action':
      return {
        key: `think-${step}`,
        kind: 'think',
        title: `Thought, then chose ${str(event.action)}`,
        detail: str(event.think),
      };
    case 'search-start': {
      const queries = strings(event.queries);
      return {
        key: `search-${step}`,
        kind: 'search',
        title: `Searching ${plural(queries.length, 'query', 'queries')}`,
        items: queries.map((text) => ({ text })),
      };
    }
    case 'search-end': {
      const queries = strings(event.queries);
      const failures = Array.isArray(event.failures) ? event.failures.length : 0;
      const hits = typeof event.hits === 'number' ? event.hits : 0;
      const fresh = typeof event.newUrls === 'number' ? `, ${event.newUrls} new` : '';
      return {
        key: `search-${step}`,
        kind: 'search',
        title: `Searched: ${plural(hits, 'result')}${fresh}${failures ? `, ${plural(failures, 'query')} failed` : ''}`,
        items: queries.map((text) => ({ text })),
        tone: failures && !hits ? 'bad' : 'ok',
      };
    }
    case 'read-start': {
      const urls = strings(event.urls);
      return {
        key: `readstart-${step}`,
        kind: 'read',
        title: `Reading ${plural(urls.length, 'page')}`,
        items: urls.map((url) => ({ text: shortUrl(url), href: url })),
      };
    }
    case 'read-end': {
      const url = str(event.url);
      const ok = event.ok === true;
      // A failed page shows its host and path as the link text, so the note is only the reason.
      const paywalled = event.paywalled ? ', paywalled' : '';
      // The reader's error names the URL first; the line already links it.
      const reason = str(event.error).startsWith(`${url} `)
        ? str(event.error).slice(url.length + 1)
        : str(event.error);
      const note = ok ? `${hostOf(url)}${paywalled}` : reason || 'failed';
      return {
        key: `read-${step}-${url}`,
        kind: 'read',
        title: ok ? 'Read' : 'Could not read',
        items: [{ text: (ok && str(event.title)) || shortUrl(url), href: url, note }],
        tone: ok ? 'ok' : 'bad',
      };
    }
    case 'reflect':
      return {
        key: `reflect-${step}`,
        kind: 'reflect',
        title: 'New questions to answer',
        items: strings(event.questions).map((text) => ({ text })),
      };
    case 'coding':
      return {
        key: `code-${step}`,
        kind: 'code',
        title: `Computed: ${str(event.purpose)}`,
        detail: str(event.code),
        tone: event.ok ? 'ok' : 'bad',
      };
    case 'evaluation':
      return {
        key: `eval-${step}-${str(event.criterion)}`,
        kind: 'check',
        title: `${str(event.criterion)} check ${event.pass ? 'passed' : 'failed'}`,
        detail: str(event.reason),
        tone: event.pass ? 'ok' : 'bad',
      };
    case 'answer-rejected':
      return {
        key: `rejected-${step}`,
        kind: 'check',
        title: 'Answer rejected, trying again',
        detail: `${str(event.reason)}\n\n${str(event.improvement)}`.trim(),
        tone: 'bad',
      };
    case 'retry':
      return {
        key: `retry-${step}-${event.seq}`,
        kind: 'warning',
        title: `Retrying the ${str(event.role)} model (attempt ${event.attempt})`,
        detail: str(event.reason),
      };
    case 'warning':
      return { key: `warning-${event.seq}`, kind: 'warning', title: str(event.message) };
    case 'persona': {
      const section = sectionOf(event.section);
      const name =
        personaNames[str(event.persona) as keyof typeof personaNames] ?? (str(event.persona) || 'Agent');
      return {
        key: `persona-${event.seq}`,
        kind: 'persona',
        title: `${name}${section ? ` · ${section}` : ''}: ${str(event.message)}`,
      };
    }
    case 'research-plan': {
      const plan = event.plan as
        | { title?: string; sections?: Array<{ heading?: string; questions?: unknown }> }
        | undefined;
      const sections = Array.isArray(plan?.sections) ? plan.sections : [];
      return {
        key: 'plan',
        kind: 'plan',
        title: `Plan: ${str(plan?.title)} (${plural(sections.length, 'section')})`,
        items: sections.map((section) => ({
          text: str(section.heading),
          note: plural(strings(section.questions).length, 'question'),
        })),
      };
    }
    case 'coverage': {
      const ratio = typeof event.ratio === 'number' ? Math.round(event.ratio * 100) : 0;
      const missing = strings(event.missing);
      return {
        key: `coverage-${str(event.section)}-${event.hop}`,
        kind: 'plan',
        title: `${sectionOf(event.section)}: ${ratio}% covered after hop ${event.hop}`,
        ...(missing.length
          ? { detail: `Still missing:\n${missing.map((item) => `- ${item}`).join('\n')}` }
          : {}),
      };
    }
    case 'fact-check':
      return {
        key: 'fact-check',
        kind: 'check',
        title: `Fact check: ${event.supported} of ${plural(Number(event.claims) || 0, 'claim')} supported, ${event.revised} revised, ${event.removed} removed`,
        tone: event.removed ? 'bad' : 'ok',
      };
    default:
      return null;
  }
}
