// A date and time with no zone, as Python's isoformat() and many CMSs write it.
const zonelessDateTime = /^(\d{4}-\d{2}-\d{2})[ T](\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?)$/;

/**
 * A date from a search engine, a meta tag or an HTTP header as ISO 8601 UTC, or undefined when it
 * cannot be read. A date-time without a zone is taken as UTC rather than as the local time of
 * whoever runs the agent, so the same page gives the same date everywhere.
 */
export function toIsoDate(value: unknown): string | undefined {
  if (typeof value !== 'string') return undefined;
  const trimmed = value.trim();
  if (!trimmed) return undefined;
  const zoneless = zonelessDateTime.exec(trimmed);
  const time = Date.parse(zoneless ? `${zoneless[1]}T${zoneless[2]}Z` : trimmed);
  if (!Number.isFinite(time)) return undefined;
  const date = new Date(time);
  // Date accepts years up to 275760, which toISOString writes as +275760-...; no page is that old or new.
  const year = date.getUTCFullYear();
  return year >= 1000 && year <= 9999 ? date.toISOString() : undefined;
}
