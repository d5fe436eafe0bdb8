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
 * How to start an extraction process: from the build, its bundle
 * (dist/extraction/worker/bundle/extraction-main.js, made by scripts/build-cli.mjs) or else
 * dist/extraction/worker/extraction-main.js; from the sources, its sources bundled
 * (childEntryCommand) with every npm package left as an import. The heap flag is added per pool.
 */
export const extractionCommand: () => Promise<ChildCommand> = memoizedCommand(() =>
  childEntryCommand({
    from: import.meta.url,
    entry: 'extraction-main',
    bundled: 'bundle/extraction-main',
    external: 'packages',
    flags: () => ['--no-warnings', '--expose-gc'],
  }),
);
