import { type ExtractionConfig, extractionConfigSchema } from '../../config/config-schema.js';
import type { ContentExtractor } from './content-extractor.js';
import { createExtractionPool, type ExtractionPool } from './extraction-pool.js';

/** A hold on the process's extraction pool; the pool's processes are killed when the last is released. */
export interface ExtractionPoolLease {
  readonly extractor: ContentExtractor;
  release(): void;
}

const pools = new Map<string, { pool: ExtractionPool; leases: number }>();

/**
 * The process's extraction pool for these settings, shared by every runtime and command of this
 * process that asks with the same settings (normally one config, so one pool). Its processes start
 * on the first read, are unref'd while idle (a CLI exits when its work is done), and are killed
 * when the last lease is released (runtime.close()) or this process exits.
 */
export function acquireExtractionPool(settings: ExtractionConfig): ExtractionPoolLease {
  // Ordered by code unit, not localeCompare: its first call loads ICU's collator (~10 ms of a CLI's start).
  const key = JSON.stringify(Object.entries(settings).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
  let entry = pools.get(key);
  if (!entry) {
    entry = { pool: createExtractionPool(settings), leases: 0 };
    pools.set(key, entry);
  }
  const held = entry;
  held.leases++;
  let released = false;
  return {
    extractor: held.pool,
    release() {
      if (released) return;
      released = true;
      held.leases--;
      if (held.leases > 0) return;
      held.pool.close();
      pools.delete(key);
    },
  };
}

let fallback: ExtractionPoolLease | undefined;

/**
 * The extractor of a reader made without one (a library caller building its own): the default
 * settings' pool, held for the life of the process, so no read parses in the caller's event loop.
 */
export function defaultExtractor(): ContentExtractor {
  fallback ??= acquireExtractionPool(extractionConfigSchema.parse({}));
  return fallback.extractor;
}
