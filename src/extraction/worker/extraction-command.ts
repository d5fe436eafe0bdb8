import {
  type ChildCommand,
  childEntryCommand,
  memoizedCommand,
} from '../../platform/child-process/child-command.js';

/** The V8 heap of an extraction process, a little under its memory cap (the cap counts more than the heap). */
export function heapFlag(memoryMb: number): string {
  return `--max-old-space-size=${Math.max(64, Math.floor(memoryMb * 0.9))}`;
}

/**
 * V8 optimises a function of an extraction process with TurboFan after 31 times as much of its
 * bytecode has run as by default (2 MiB against 66 KB). The processes are often fresh (the pool
 * starts them on first use and replaces those that kept memory), and a fresh one's first pages
 * cost about half again what later ones do: with this, a fresh process read its first 100 WCXB
 * pages with about a sixth less CPU and the next 100 with about as much, and `bench:server` with
 * real pages (`BENCH_REAL_PAGES=100`, N = 50) went from 2.2 to 1.6 s of overhead p50. Not in the
 * server's process: there its run thread, which every run waits on, got slower by more than V8's
 * compiler threads saved. Measured in docs/development.md (2026-12-06, late evening).
 */
export const tierUpFlag = '--interrupt-budget=2097152';

/**
 * How to start an extraction process: from the build, its bundle
 * (dist/extraction/worker/bundle/extraction-main.js, made by scripts/build-cli.mjs) or else
 * dist/extraction/worker/extraction-main.js; from the sources, its sources bundled
 * (childEntryCommand) with every npm package left as an import; V8 optimises later
 * (tierUpFlag). The heap flag is added per pool.
 */
export const extractionCommand: () => Promise<ChildCommand> = memoizedCommand(() =>
  childEntryCommand({
    from: import.meta.url,
    entry: 'extraction-main',
    bundled: 'bundle/extraction-main',
    external: 'packages',
    flags: () => ['--no-warnings', '--expose-gc', tierUpFlag],
  }),
);
