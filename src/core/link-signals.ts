/**
 * One signal that aborts when any of `sources` does, through listeners (`unlink` removes them once
 * the work is over). Not AbortSignal.any: its sources hold a composite signal weakly, and a chain of
 * composites (request → run → call) must never lose a cancellation.
 */
export function linkSignals(sources: ReadonlyArray<AbortSignal | undefined>): {
  signal: AbortSignal;
  abort(reason?: unknown): void;
  unlink(): void;
} {
  const controller = new AbortController();
  const linked = sources.filter((source): source is AbortSignal => source !== undefined);
  const follow = (event: Event) => controller.abort((event.target as AbortSignal).reason);
  for (const source of linked) {
    if (source.aborted) controller.abort(source.reason);
    else source.addEventListener('abort', follow, { once: true });
  }
  return {
    signal: controller.signal,
    abort: (reason) => controller.abort(reason),
    unlink: () => {
      for (const source of linked) source.removeEventListener('abort', follow);
    },
  };
}

/**
 * One signal that aborts when any of `sources` does, for work that ends with its caller (a call's
 * timeout, a deadline): AbortSignal.any over the sources given, the only one itself, none
 * undefined. A handle that must cancel and unlink on its own uses linkSignals.
 */
export function anySignal(first: AbortSignal, ...rest: Array<AbortSignal | undefined>): AbortSignal;
export function anySignal(...sources: Array<AbortSignal | undefined>): AbortSignal | undefined;
export function anySignal(...sources: Array<AbortSignal | undefined>): AbortSignal | undefined {
  const given = sources.filter((source): source is AbortSignal => source !== undefined);
  return given.length <= 1 ? given[0] : AbortSignal.any(given);
}
