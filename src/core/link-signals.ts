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
