import { CronExpressionParser } from 'cron-parser';
import { InputError } from '../core/errors/index.js';
import type { WatchSchedule } from './watch-record.js';

const unitMs: Record<string, number> = {
  s: 1000,
  m: 60_000,
  h: 3_600_000,
  d: 86_400_000,
  w: 7 * 86_400_000,
};

/** `30m`, `6h`, `1d`, `1w` (and seconds, `90s`, for tests), in milliseconds; undefined when it is none. */
export function parseDuration(text: string): number | undefined {
  const match = /^\s*(\d+(?:\.\d+)?)\s*([smhdw])\s*$/i.exec(text);
  if (!match) return undefined;
  const ms = Math.round(Number(match[1]) * unitMs[match[2]!.toLowerCase()]!);
  return ms > 0 ? ms : undefined;
}

/** A schedule from `every` or `cron` (one of them), no shorter than `minIntervalMs`; an InputError says what to fix. */
export function parseSchedule(
  input: { every?: string; cron?: string },
  options: { minIntervalMs: number; param?: { every: string; cron: string } },
): WatchSchedule {
  const names = options.param ?? { every: 'every', cron: 'cron' };
  const refuse = (message: string, param: string): never => {
    throw new InputError(message, { code: 'watch_invalid_schedule', param });
  };
  if (input.every !== undefined && input.cron !== undefined)
    refuse(`give ${names.every} or ${names.cron}, not both`, names.every);
  if (input.every !== undefined) {
    const everyMs = parseDuration(input.every);
    if (everyMs === undefined)
      return refuse(
        `${names.every} must be a duration such as 30m, 6h, 1d or 1w (got "${input.every.slice(0, 40)}")`,
        names.every,
      );
    if (everyMs < options.minIntervalMs)
      refuse(
        `${names.every} must be at least ${describeMs(options.minIntervalMs)} (got ${input.every})`,
        names.every,
      );
    return { every: input.every.trim(), everyMs };
  }
  if (input.cron !== undefined) {
    const cron = input.cron.trim();
    let gap: number;
    try {
      const expression = CronExpressionParser.parse(cron, { currentDate: new Date() });
      const first = expression.next().getTime();
      gap = expression.next().getTime() - first;
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error);
      return refuse(
        `${names.cron} must be a cron pattern such as "0 8 * * 1" (minute hour day month weekday): ${reason}`,
        names.cron,
      );
    }
    if (gap < options.minIntervalMs)
      refuse(
        `${names.cron} runs more often than every ${describeMs(options.minIntervalMs)}: "${cron}"`,
        names.cron,
      );
    return { cron };
  }
  return refuse(
    `a watch needs a schedule: ${names.every} (30m, 6h, 1d, 1w) or ${names.cron} ("0 8 * * 1")`,
    names.every,
  );
}

/** When a watch on `schedule` runs next after `from` (a run that started then). */
export function nextRunAfter(schedule: WatchSchedule, from: number): number {
  if ('everyMs' in schedule) return from + schedule.everyMs;
  return CronExpressionParser.parse(schedule.cron, { currentDate: new Date(from) })
    .next()
    .getTime();
}

/** "every 6h" or "cron 0 8 * * 1". */
export function describeSchedule(schedule: WatchSchedule): string {
  return 'every' in schedule ? `every ${schedule.every}` : `cron ${schedule.cron}`;
}

function describeMs(ms: number): string {
  if (ms % 60_000 === 0) return `${ms / 60_000} minute${ms === 60_000 ? '' : 's'}`;
  return `${ms / 1000} seconds`;
}
