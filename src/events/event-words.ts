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
