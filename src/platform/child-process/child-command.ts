import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

/** How to start a child: Node's arguments and the folder it starts in. */
export interface ChildCommand {
  args: string[];
  cwd: string;
}

export interface ChildEntryOptions {
  /** import.meta.url of a module in the entry's folder. */
  from: string;
  /** The entry's file name without extension, in that folder (sandbox-host-main). */
  entry: string;
  /**
   * Where the build puts the entry bundled (scripts/build-cli.mjs), relative to the folder and
   * without extension: started instead of the entry when it is there (fewer files to load).
   */
  bundled?: string;
  /** Node flags before the entry; told whether it runs from the sources and the entry's folder. */
  flags(context: { fromSources: boolean; folder: string }): string[];
  /** Imports left to Node when bundling from the sources: these packages, or every package. */
  external: string[] | 'packages';
}

/**
 * How to run a child's entry module. From the built package, the entry is the .js file beside
 * `from`. From the TypeScript sources (vitest, tsx), Node cannot run a .ts entry itself, and tsx's
 * loader would need worker threads and reads all over the disk (which a child under Node's
 * permission model may not do): the entry's sources are bundled with esbuild (a devDependency,
 * present wherever the sources are) and given to Node with --eval, npm packages left as imports
 * resolved from the repository. Both ways run the same code under the same flags.
 */
export async function childEntryCommand(options: ChildEntryOptions): Promise<ChildCommand> {
  const here = fileURLToPath(options.from);
  const folder = dirname(here);
  const fromSources = here.endsWith('.ts');
  const flags = options.flags({ fromSources, folder });
  if (!fromSources) {
    const bundled = options.bundled && join(folder, `${options.bundled}.js`);
    const entry = bundled && existsSync(bundled) ? bundled : join(folder, `${options.entry}.js`);
    return { args: [...flags, entry], cwd: folder };
  }
  const source = await bundleEntry(join(folder, `${options.entry}.ts`), options.external);
  return { args: [...flags, '--input-type=module', '--eval', source], cwd: packageRoot(folder) };
}

/** The nearest folder at or above `start` with a package.json. */
export function packageRoot(start: string): string {
  for (let folder = start; ; folder = dirname(folder)) {
    if (existsSync(join(folder, 'package.json'))) return folder;
    if (dirname(folder) === folder) throw new Error(`no package.json above ${start}`);
  }
}

/**
 * An entry's sources bundled as one ES module, npm packages (or `external`) left as imports.
 * `moduleUrls`: each module's `import.meta.url` stays its source file's (a module that finds files
 * beside itself, e.g. the extraction entry, still finds them once bundled elsewhere).
 */
export async function bundleEntry(
  entry: string,
  external: string[] | 'packages',
  options: { moduleUrls?: boolean } = {},
): Promise<string> {
  const { build } = await import('esbuild');
  const output = await build({
    entryPoints: [entry],
    bundle: true,
    write: false,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    ...(external === 'packages' ? { packages: 'external' as const } : { external }),
    logLevel: 'silent',
    plugins: options.moduleUrls
      ? [
          {
            name: 'source-urls',
            setup(plugin) {
              plugin.onLoad({ filter: /\.ts$/ }, (args) => {
                const source = readFileSync(args.path, 'utf8');
                if (!source.includes('import.meta.url')) return undefined;
                const url = JSON.stringify(pathToFileURL(args.path).href);
                return { contents: source.replaceAll('import.meta.url', url), loader: 'ts' };
              });
            },
          },
        ]
      : [],
  });
  return output.outputFiles[0]!.text;
}

/**
 * Memoises a command: resolved once per process (bundling takes a moment), again after a failure.
 */
export function memoizedCommand(resolve: () => Promise<ChildCommand>): () => Promise<ChildCommand> {
  let resolved: Promise<ChildCommand> | undefined;
  return () => {
    resolved ??= resolve().catch((error: unknown) => {
      resolved = undefined;
      throw error;
    });
    return resolved;
  };
}
