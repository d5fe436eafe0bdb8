import type { DeepSearchConfig } from '../config/config-schema.js';
import { createTrustRecords, type TrustRecords } from '../knowledge/trust-records.js';
import type { SqliteDriverLoader } from '../providers/cache/sqlite-cache.js';
import { HostHealth } from '../retrieval/host-health.js';

/** The runtime's domain trust profiles: loaded on first use, saved after each run. */
export interface RuntimeTrust {
  /** The profiles, read from their records on the first call (one object for the runtime's life). */
  hostHealth(): HostHealth;
  /** Records the hosts a finished run cited and saves the profiles when the run changed them. */
  settle(
    health: HostHealth,
    cited: ReadonlyArray<{ url: string }> | undefined,
    warn: (message: string) => void,
  ): void;
  /** Releases the records' database connection (it reopens on the next load or save). */
  close(): void;
}

export function createRuntimeTrust(options: {
  config: DeepSearchConfig;
  loadSqlite?: SqliteDriverLoader;
}): RuntimeTrust {
  const { config } = options;
  // Keeps one connection to the knowledge base's file from the first load or save to close().
  const records = createTrustRecords({
    jsonFile: config.retrieval.hostHealthFile,
    knowledgeFile: config.knowledge.file,
    loadDriver: options.loadSqlite,
  });
  // Read on first use: a runtime that only searches or reads never opens the database for it.
  let loaded: HostHealth | undefined;
  return {
    hostHealth: () => {
      loaded ??= loadHostHealth(records);
      return loaded;
    },
    settle: (health, cited, warn) => {
      // A domain cited in a final answer earns trust: the reference count of its profile.
      for (const reference of cited ?? []) health.recordReference(reference.url);
      // Only the hosts changed since the last save (by this run or one still going) are written.
      if (records) saveHostHealth(records, health, warn);
    },
    close: () => records?.close(),
  };
}

/** The trust profiles, read once from their records; a damaged or unreadable record starts afresh. */
function loadHostHealth(records: TrustRecords | undefined): HostHealth {
  if (!records) return new HostHealth();
  try {
    return new HostHealth(records.load());
  } catch {
    return new HostHealth();
  }
}

/** Writes the hosts changed since the last save; on failure they stay unsaved for the next one. */
function saveHostHealth(records: TrustRecords, health: HostHealth, warn: (message: string) => void): void {
  const changes = health.unsavedChanges();
  if (changes.length === 0) return;
  try {
    health.markSaved(records.save(changes));
  } catch (error) {
    warn(`cannot save domain trust profiles to ${records.file}: ${(error as Error).message}`);
  }
}
