import type { DeepSearchConfig } from '../config/config-schema.js';
import { createTrustRecords, type TrustRecords } from '../knowledge/trust-records.js';
import type { TrustStore } from '../knowledge/trust-store.js';
import type { SqliteDriverLoader } from '../platform/storage/sqlite-cache.js';
import { HostHealth } from '../retrieval/host-health.js';

/** The runtime's domain trust profiles: loaded on first use, saved after each run. */
export interface RuntimeTrust {
  /** The profiles as known now (local records: read on the first call; one object for the runtime's life). */
  hostHealth(): HostHealth;
  /** The profiles for a run about to start (a shared store's are read again once a minute old). */
  load(): Promise<HostHealth>;
  /** Records the hosts a finished run cited and saves the profiles when the run changed them. */
  settle(
    health: HostHealth,
    cited: ReadonlyArray<{ url: string }> | undefined,
    warn: (message: string) => void,
  ): Promise<void>;
  /** Releases the records' database connection (it reopens on the next load or save). */
  close(): void;
}

/** How old a shared store's profiles may be when a run starts: what other workers learnt since is read then. */
const sharedRefreshMs = 60_000;

/**
 * The profiles of `store` when one is given (queue mode: Postgres, shared by every worker; its
 * owner closes it), else the config's local records (the knowledge base's file, or
 * retrieval.hostHealthFile).
 */
export function createRuntimeTrust(options: {
  config: DeepSearchConfig;
  loadSqlite?: SqliteDriverLoader;
  store?: TrustStore;
}): RuntimeTrust {
  if (options.store) return sharedTrust(options.store);
  const { config } = options;
  // Keeps one connection to the knowledge base's file from the first load or save to close().
  const records = createTrustRecords({
    jsonFile: config.retrieval.hostHealthFile,
    knowledgeFile: config.knowledge.file,
    loadDriver: options.loadSqlite,
  });
  // Read on first use: a runtime that only searches or reads never opens the database for it.
  let loaded: HostHealth | undefined;
  const hostHealth = () => {
    loaded ??= loadHostHealth(records);
    return loaded;
  };
  return {
    hostHealth,
    load: async () => hostHealth(),
    settle: async (health, cited, warn) => {
      recordCitations(health, cited);
      // Only the hosts changed since the last save (by this run or one still going) are written.
      const changes = health.unsavedChanges();
      if (!records || changes.length === 0) return;
      try {
        health.markSaved(records.save(changes), changes);
      } catch (error) {
        warn(`cannot save domain trust profiles to ${records.file}: ${(error as Error).message}`);
      }
    },
    close: () => records?.close(),
  };
}

/**
 * Profiles in a store every worker shares: read before a run when a minute old, saved after it.
 * Saves go one at a time, each with the changes unsaved when it starts: runs that end together
 * never send one change twice, and what a run changes while a save is on its way waits for the next.
 */
function sharedTrust(store: TrustStore): RuntimeTrust {
  const health = new HostHealth();
  let readAt = Number.NEGATIVE_INFINITY;
  let reading: Promise<void> | undefined;
  let saving: Promise<void> = Promise.resolve();
  const read = () => {
    reading ??= store
      .load()
      .then((stored) => {
        health.refresh(stored);
        readAt = Date.now();
      })
      // Unreadable now (Postgres restarting): the run goes on with what is known; the next one reads again.
      .catch(() => undefined)
      .finally(() => {
        reading = undefined;
      });
    return reading;
  };
  const save = async (warn: (message: string) => void) => {
    const changes = health.unsavedChanges();
    if (changes.length === 0) return;
    try {
      health.markSaved(await store.save(changes), changes);
    } catch (error) {
      // Kept unsaved: the next run's save sends them.
      warn(`cannot save domain trust profiles to ${store.location}: ${(error as Error).message}`);
    }
  };
  return {
    hostHealth: () => health,
    async load() {
      if (Date.now() - readAt >= sharedRefreshMs) await read();
      return health;
    },
    settle(settled, cited, warn) {
      recordCitations(settled, cited);
      saving = saving.then(() => save(warn));
      return saving;
    },
    close() {},
  };
}

/** A domain cited in a final answer earns trust: the reference count of its profile. */
function recordCitations(health: HostHealth, cited: ReadonlyArray<{ url: string }> | undefined): void {
  for (const reference of cited ?? []) health.recordReference(reference.url);
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
