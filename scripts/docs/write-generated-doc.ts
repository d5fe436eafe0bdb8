import { readFileSync, writeFileSync } from 'node:fs';
import { relative } from 'node:path';

/**
 * Writes a generated doc, or with `--check` only compares and exits 1 when the committed file is
 * stale (the docs test does the same in `npm test`). `command` is what regenerates it.
 */
export function writeGeneratedDoc(target: string, generated: string, command: string): void {
  const shown = relative(process.cwd(), target);
  if (process.argv.includes('--check')) {
    if (readFileSync(target, 'utf8') !== generated) {
      console.error(`${shown} is out of date: run ${command}`);
      process.exit(1);
    }
    console.log(`${shown} is up to date`);
  } else {
    writeFileSync(target, generated);
    console.log(`wrote ${target}`);
  }
}
