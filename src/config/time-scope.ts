/**
 * `--since`: a date (2026-11-01, or a full ISO 8601 time) or a duration back from now (36h, 30d,
 * 2w, 6m, 1y). Kept as written in the config, so a config file's "30d" means 30 days before each
 * run; turned into a date when a search is made.
 */
const durationPattern = /^(\d{1,4})\s*(h|d|w|m|y)$/i;
const datePattern = /^\d{4}-\d{2}-\d{2}(?:[T ][\d:.]+(?:Z|[+-]\d{2}:?\d{2})?)?$/;

const hourMs = 3_600_000;
const dayMs = 24 * hourMs;

export const sinceHelp = 'a date (2026-11-01) or a duration back from now (36h, 30d, 2w, 6m, 1y)';

/** Whether a --since value can be read (a real date, or a duration). */
export function isSinceValue(value: string): boolean {
  const trimmed = value.trim();
  if (durationPattern.test(trimmed)) return true;
  return datePattern.test(trimmed) && !Number.isNaN(Date.parse(trimmed));
}

/** The instant a --since value stands for, `now` being when the search is made; undefined when unreadable. */
export function parseSince(value: string, now: Date): Date | undefined {
  const trimmed = value.trim();
  const duration = durationPattern.exec(trimmed);
  if (duration) {
    const amount = Number(duration[1]);
    const unit = duration[2]!.toLowerCase();
    if (unit === 'm' || unit === 'y') {
      const date = new Date(now);
      if (unit === 'm') date.setUTCMonth(date.getUTCMonth() - amount);
      else date.setUTCFullYear(date.getUTCFullYear() - amount);
      return date;
    }
    const unitMs = unit === 'h' ? hourMs : unit === 'd' ? dayMs : 7 * dayMs;
    return new Date(now.getTime() - amount * unitMs);
  }
  if (!isSinceValue(trimmed)) return undefined;
  return new Date(Date.parse(trimmed));
}
