import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

/** How to start the sandbox host: Node's arguments and the folder it starts in. */
export interface SandboxHostCommand {
  args: string[];
  cwd: string;
}

/** The engine's packages, the only ones the host imports (and so the only ones it may read). */
const enginePackages = ['quickjs-emscripten-core', '@jitl/quickjs-ng-wasmfile-release-sync'];
/** Their shared dependency, resolved from each of them (it may be nested under either). */
const engineDependency = '@jitl/quickjs-ffi-types';

let resolved: Promise<SandboxHostCommand> | undefined;

/**
 * From the built package, the host is dist/providers/sandbox/sandbox-host-main.js beside this
 * file. From the TypeScript sources (vitest, tsx), this file is a .ts module and Node cannot run
 * sandbox-host-main.ts itself: tsx's loader needs worker threads, child processes and reads all
 * over the disk, which the permission model refuses. So the host's sources are bundled with
 * esbuild (a devDependency, present wherever the sources are) and given to Node with --eval, the
 * engine's packages left as imports resolved from the repository; both ways run the same code
 * under the same flags.
 */
export function sandboxHostCommand(): Promise<SandboxHostCommand> {
  resolved ??= resolveCommand().catch((error: unknown) => {
    resolved = undefined;
    throw error;
  });
  return resolved;
}

async function resolveCommand(): Promise<SandboxHostCommand> {
  const here = fileURLToPath(import.meta.url);
  const folder = dirname(here);
  const fromSources = here.endsWith('.ts');
  const readable = [...engineFolders(), ...(fromSources ? [] : [`${folder}${sep}`])];
  const flags = [
    '--no-warnings',
    // The host's own code never evaluates strings; WebAssembly compilation is not affected.
    '--disallow-code-generation-from-strings',
    ...permissionFlags(readable),
  ];
  if (!fromSources) return { args: [...flags, join(folder, 'sandbox-host-main.js')], cwd: folder };
  const source = await bundleHostSources(join(folder, 'sandbox-host-main.ts'));
  return { args: [...flags, '--input-type=module', '--eval', source], cwd: packageRoot(folder) };
}

/**
 * Node's permission model: no child processes, workers, native addons or writes, and reads only
 * of the engine's packages and the host's own folder. Module resolution and the engine's read of
 * its .wasm file go through the same checks, so the host works with these and no more (checked by
 * the host's describe message in quickjs-code-runner-process.test.ts). Node 20 calls it
 * --experimental-permission and wants one --allow-fs-read per path; later versions call it
 * --permission.
 */
function permissionFlags(readable: string[]): string[] {
  const flag = process.allowedNodeEnvironmentFlags.has('--permission')
    ? '--permission'
    : '--experimental-permission';
  return [flag, ...readable.map((path) => `--allow-fs-read=${path}`)];
}

/** Real folders of the engine's packages (createRequire resolves symlinks, as the loader does). */
function engineFolders(): string[] {
  const require = createRequire(import.meta.url);
  const folders = new Set<string>();
  for (const name of enginePackages) {
    const entry = require.resolve(name);
    folders.add(packageRoot(dirname(entry)));
    folders.add(packageRoot(dirname(createRequire(entry).resolve(engineDependency))));
  }
  return [...folders].map((folder) => `${folder}${sep}`);
}

function packageRoot(start: string): string {
  for (let folder = start; ; folder = dirname(folder)) {
    if (existsSync(join(folder, 'package.json'))) return folder;
    if (dirname(folder) === folder) throw new Error(`no package.json above ${start}`);
  }
}

async function bundleHostSources(entry: string): Promise<string> {
  const { build } = await import('esbuild');
  const output = await build({
    entryPoints: [entry],
    bundle: true,
    write: false,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    external: enginePackages,
    logLevel: 'silent',
  });
  return output.outputFiles[0]!.text;
}
