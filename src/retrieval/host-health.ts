/** What went wrong with a host: unreadable (errors, empty pages) or behind a paywall or login. */
export type HostProblem = 'failed' | 'paywalled';

export interface HostHealthEntry {
  failures: number;
  successes: number;
  paywalled: number;
  /** ISO 8601 of the last problem, so old trouble can be forgiven. */
  lastProblemAt?: string;
}

export type HostHealthSnapshot = Record<string, HostHealthEntry>;

const forgetAfterDays = 30;

/**
 * Hosts that failed or were paywalled, remembered across steps and (saved by the runtime) across
 * runs, so their URLs sink in the ranking instead of wasting reads. Pure: no IO here.
 */
export class HostHealth {
  private readonly entries = new Map<string, HostHealthEntry>();

  /** From a saved snapshot; anything malformed (a damaged file) is ignored, entry by entry. */
  constructor(snapshot: unknown = {}) {
    if (typeof snapshot !== 'object' || snapshot === null || Array.isArray(snapshot)) return;
    for (const [host, entry] of Object.entries(snapshot)) {
      if (isEntry(entry)) this.entries.set(host, { ...entry });
    }
  }

  record(host: string, outcome: HostProblem | 'ok', now = new Date()): void {
    if (!host) return;
    const entry = this.entries.get(host) ?? { failures: 0, successes: 0, paywalled: 0 };
    if (outcome === 'ok') entry.successes++;
    else {
      if (outcome === 'failed') entry.failures++;
      else entry.paywalled++;
      entry.lastProblemAt = now.toISOString();
    }
    this.entries.set(host, entry);
  }

  /**
   * 0 (healthy) to 0.9 (reliably unusable): the share of problems among visits, paywalls counting
   * double, with less certainty for few visits and none once the last problem is a month old.
   */
  penalty(host: string, now = new Date()): number {
    const entry = this.entries.get(host);
    if (!entry?.lastProblemAt) return 0;
    const ageDays = (now.getTime() - Date.parse(entry.lastProblemAt)) / 86_400_000;
    if (!(ageDays < forgetAfterDays)) return 0;
    const problems = entry.failures + 2 * entry.paywalled;
    const share = problems / (problems + entry.successes + 1);
    return Math.min(0.9, share);
  }

  snapshot(): HostHealthSnapshot {
    return Object.fromEntries(this.entries);
  }
}

function isEntry(value: unknown): value is HostHealthEntry {
  const entry = value as HostHealthEntry;
  return (
    typeof entry === 'object' &&
    entry !== null &&
    Number.isFinite(entry.failures) &&
    Number.isFinite(entry.successes) &&
    Number.isFinite(entry.paywalled)
  );
}
