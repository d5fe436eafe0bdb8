import type { HostHealthChange, HostHealthSnapshot } from '../retrieval/host-health.js';
import type { TrustRecords } from './trust-records.js';

/**
 * Domain trust profiles as a deployment shares them (TrustRecords' operations, awaited): saves add
 * a runtime's changes to what is stored (counts add up, the earliest first visit and the latest
 * problem are kept, the https of the newest read wins), so workers updating one domain all count.
 */
export interface TrustStore {
  /** Where the profiles are, for messages and `deepsearch trust`. */
  readonly location: string;
  load(): Promise<HostHealthSnapshot>;
  /** Adds the changes to the stored profiles; returns those profiles as stored now. */
  save(changes: readonly HostHealthChange[]): Promise<HostHealthSnapshot>;
  close(): Promise<void>;
}

/** Today's records (the knowledge base's table, or the JSON file) behind the shared interface. */
export function toTrustStore(records: TrustRecords): TrustStore {
  return {
    location: records.file,
    load: async () => records.load(),
    save: async (changes) => records.save(changes),
    close: async () => records.close(),
  };
}
