export interface CollapsedWarnings {
  /** Writes the warning, unless the same one was written less than a minute ago (then counts it). */
  warn(message: string): void;
  /** Writes the counts still held, and stops the minute timer. */
  stop(): void;
}

/**
 * Repeated identical warnings collapsed: a service that is away makes every lock renewal, sweep
 * and reconnect fail the same way, several times a second. The first one is written at once; the
 * repeats of the next `intervalMs` (a minute) are counted and written as one line with the count,
 * when the minute is over.
 */
export function createCollapsedWarnings(options: {
  write: (message: string) => void;
  intervalMs?: number;
  now?: () => number;
}): CollapsedWarnings {
  const intervalMs = options.intervalMs ?? 60_000;
  const now = options.now ?? Date.now;
  const seen = new Map<string, { since: number; repeats: number }>();
  const flush = (all: boolean) => {
    for (const [message, entry] of seen) {
      if (!all && now() - entry.since < intervalMs) continue;
      if (entry.repeats > 0) {
        options.write(
          `${message} (${entry.repeats} more time${entry.repeats === 1 ? '' : 's'} in the last minute)`,
        );
        seen.set(message, { since: now(), repeats: 0 });
      } else seen.delete(message);
    }
  };
  const timer = setInterval(() => flush(false), Math.min(intervalMs, 60_000) / 4);
  timer.unref();
  return {
    warn(message) {
      const entry = seen.get(message);
      if (entry) {
        entry.repeats++;
        return;
      }
      seen.set(message, { since: now(), repeats: 0 });
      options.write(message);
    },
    stop() {
      clearInterval(timer);
      flush(true);
    },
  };
}
