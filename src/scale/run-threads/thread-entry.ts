import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, renameSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { bundleEntry, packageRoot } from '../../platform/child-process/child-command.js';

/**
 * Where a run thread starts: from the build, the CLI bundle's entry (dist/cli/bundle/run-thread-main.js,
 * made by scripts/build-cli.mjs beside the CLI, sharing its chunks) or else
 * dist/scale/run-threads/run-thread-main.js; from the TypeScript sources (vitest, tsx), Node cannot
 * start a thread on a .ts file, so the entry's sources are bundled with esbuild (a devDependency,
 * present wherever the sources are) into node_modules/.cache/deepsearch/, npm packages left as
 * imports resolved from the repository, each module's `import.meta.url` its source file's.
 */
export async function runThreadEntry(): Promise<URL> {
  const here = fileURLToPath(import.meta.url);
  const folder = dirname(here);
  if (!here.endsWith('.ts')) {
    const bundled = join(folder, '../../cli/bundle/run-thread-main.js');
    return pathToFileURL(existsSync(bundled) ? bundled : join(folder, 'run-thread-main.js'));
  }
  bundling ??= bundleFromSources(join(folder, 'run-thread-main.ts')).catch((error: unknown) => {
    bundling = undefined;
    throw error;
  });
  return bundling;
}

let bundling: Promise<URL> | undefined;

async function bundleFromSources(entry: string): Promise<URL> {
  const text = await bundleEntry(entry, 'packages', { moduleUrls: true });
  const folder = join(packageRoot(dirname(entry)), 'node_modules', '.cache', 'deepsearch');
  mkdirSync(folder, { recursive: true });
  // Named by its content: test processes share one file per version of the sources.
  const file = join(
    folder,
    `run-thread-main-${createHash('sha256').update(text).digest('hex').slice(0, 16)}.mjs`,
  );
  if (!existsSync(file)) {
    // Written aside and renamed: another process never starts a thread on half a file.
    const partial = `${file}.${process.pid}.tmp`;
    writeFileSync(partial, text);
    renameSync(partial, file);
  }
  return pathToFileURL(file);
}
