import { createRequire } from 'node:module';
import { resolve } from 'node:path';
import type BetterSqlite3 from 'better-sqlite3';
import type { DeepSearchConfig } from '../../config/config-schema.js';
import { createRuntime, type DeepSearchRuntime, type RuntimeOptions } from '../../runtime/create-runtime.js';
import type { CliIo } from '../io/cli-io.js';

/**
 * The runtime every command uses. A cache whose native module cannot load (no C++ toolchain at
 * install, a Node upgrade since) is one warning line and a run without the cache, not a failure.
 */
export function createCliRuntime(
  io: CliIo,
  config: DeepSearchConfig,
  /**
   * Parts the command brings (a worker's run store, its LLM-capped fetch, queue mode's trust store,
   * read's extractor).
   */
  parts: Pick<RuntimeOptions, 'runStore' | 'modelFetch' | 'trustStore' | 'extractor'> = {},
): DeepSearchRuntime {
  return createRuntime({
    config,
    ...parts,
    onCacheUnavailable: (message) => io.stderr.write(`deepsearch: warning: ${message}\n`),
    loadSqlite: sqliteLoaderFrom(io),
  });
}

/**
 * DEEPSEARCH_SQLITE_MODULE names another better-sqlite3 build to load (a copy built separately;
 * the e2e tests point it at one that fails like a missing native binding). Unset: the installed one.
 */
export function sqliteLoaderFrom(io: CliIo): (() => typeof BetterSqlite3) | undefined {
  const target = sqliteModulePath(io);
  if (!target) return undefined;
  return () => createRequire(resolve(io.cwd, 'package.json'))(target) as typeof BetterSqlite3;
}

/** The better-sqlite3 build DEEPSEARCH_SQLITE_MODULE names, as an absolute path (a serve's run threads load it too). */
export function sqliteModulePath(io: CliIo): string | undefined {
  const modulePath = io.env.DEEPSEARCH_SQLITE_MODULE;
  return modulePath ? resolve(io.cwd, modulePath) : undefined;
}
