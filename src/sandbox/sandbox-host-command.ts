import { createRequire } from 'node:module';
import { dirname, sep } from 'node:path';
import {
  type ChildCommand,
  childEntryCommand,
  memoizedCommand,
  packageRoot,
} from '../platform/child-process/child-command.js';

/** How to start the sandbox host: Node's arguments and the folder it starts in. */
export type SandboxHostCommand = ChildCommand;

/** The engine's packages, the only ones the host imports (and so the only ones it may read). */
const enginePackages = ['quickjs-emscripten-core', '@jitl/quickjs-ng-wasmfile-release-sync'];
/** Their shared dependency, resolved from each of them (it may be nested under either). */
const engineDependency = '@jitl/quickjs-ffi-types';

/**
 * From the built package, dist/sandbox/sandbox-host-main.js; from the sources, its
 * bundle (childEntryCommand), the engine's packages left as imports. Both under Node's permission
 * model, which is why tsx cannot be the loader.
 */
export const sandboxHostCommand: () => Promise<SandboxHostCommand> = memoizedCommand(() =>
  childEntryCommand({
    from: import.meta.url,
    entry: 'sandbox-host-main',
    external: enginePackages,
    flags: ({ fromSources, folder }) => [
      '--no-warnings',
      // The host's own code never evaluates strings; WebAssembly compilation is not affected.
      '--disallow-code-generation-from-strings',
      ...permissionFlags([...engineFolders(), ...(fromSources ? [] : [`${folder}${sep}`])]),
    ],
  }),
);

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
