import { addChange, changeSince } from './host-health-change.js';
import { hostOf } from './normalize-url.js';
import { type TrustScore, trustScore } from './trust-score.js';

/**
 * What went wrong with a host: unreadable (errors, empty pages), behind a paywall, or refusing
 * us (login walls, bot blocks, rate limits).
 */
export type HostProblem = 'failed' | 'paywalled' | 'blocked';

/** A domain's trust profile as it is saved (the knowledge base's `domains` table or a JSON file). */
export interface HostHealthEntry {
  failures: number;
  successes: number;
  paywalled: number;
  blocked?: number;
  /** Times a URL of the host was cited in a final answer. */
  references?: number;
  /** ISO 8601 of the first visit or citation. */
  firstSeen?: string;
  /** Whether the last URL read or cited from the host was https. */
  https?: boolean;
  /** ISO 8601 of the last problem, so old trouble can be forgiven. */
  lastProblemAt?: string;
}

export type HostHealthSnapshot = Record<string, HostHealthEntry>;

/**
 * What a runtime changed in one domain's profile since its last save: the counts as increments,
 * so saves of several processes add up instead of the later one overwriting the other's.
 */
export interface HostHealthChange {
  host: string;
  failures: number;
  successes: number;
  paywalled: number;
  blocked: number;
  references: number;
  /** The profile's first visit or citation as this runtime knows it (the earlier one is kept). */
  firstSeen?: string;
  /** Set when a URL read or cited since the last save told the scheme. */
  https?: boolean;
  /** The profile's last problem as this runtime knows it (the later one is kept). */
  lastProblemAt?: string;
}

/** The counts a visit's outcome or a citation adds to. */
type CountField = 'failures' | 'successes' | 'paywalled' | 'blocked' | 'references';
const outcomeCounts: Readonly<Record<HostProblem | 'ok', CountField>> = {
  ok: 'successes',
  failed: 'failures',
  blocked: 'blocked',
  paywalled: 'paywalled',
};

/** What `trustOf` tells research synthesis and `deepsearch trust show` about a domain. */
export interface TrustProfile
  extends Required<Omit<HostHealthEntry, 'firstSeen' | 'lastProblemAt' | 'https'>> {
  host: string;
  /** False for a domain never visited nor cited: the score then rests on its name alone. */
  seen: boolean;
  firstSeen?: string;
  lastProblemAt?: string;
  https?: boolean;
  paywalledFlag: boolean;
  blockedFlag: boolean;
  /** Provisional trust in [0, 1] from offline heuristics, with its reasons. */
  trust: TrustScore;
}

const forgetAfterDays = 30;

/**
 * Per-domain trust profiles: visits that failed, were paywalled or blocked, successes, citations
 * in final answers, first seen, https. Remembered across steps and (saved by the runtime) across
 * runs, so failing hosts sink in the ranking and trusted ones rise. Pure: no IO here.
 */
export class HostHealth {
  private readonly entries = new Map<string, HostHealthEntry>();
  /** Per host, what changed since the last save (only these hosts are written). */
  private readonly unsaved = new Map<string, HostHealthChange>();
  private updates = 0;

  /** From a saved snapshot; anything malformed (a damaged file) is ignored, entry by entry. */
  constructor(snapshot: unknown = {}) {
    if (typeof snapshot !== 'object' || snapshot === null || Array.isArray(snapshot)) return;
    for (const [host, entry] of Object.entries(snapshot)) {
      if (isHostHealthEntry(entry)) this.entries.set(host, { ...entry });
    }
  }

  /** Grows with every update: the runtime saves only when a run changed something. */
  get changes(): number {
    return this.updates;
  }

  /** The outcome of reading a URL of the host. */
  record(host: string, outcome: HostProblem | 'ok', now = new Date()): void {
    this.update(host, outcome, now);
  }

  /** The outcome of reading a URL: its host's profile, and whether it was https. Local sources have none. */
  recordUrl(url: string, outcome: HostProblem | 'ok', now = new Date()): void {
    this.update(hostOf(url), outcome, now, url);
  }

  private update(host: string, outcome: HostProblem | 'ok', now: Date, url?: string): void {
    if (!host) return;
    this.count(host, outcomeCounts[outcome], now, url);
    if (outcome !== 'ok') this.entries.get(host)!.lastProblemAt = now.toISOString();
  }

  /** One more of `field` in the host's profile and in its unsaved change. */
  private count(host: string, field: CountField, now: Date, url: string | undefined): void {
    const entry = this.entry(host, now, url);
    entry[field] = (entry[field] ?? 0) + 1;
    this.unsaved.get(host)![field]++;
  }

  /** A URL was cited in a final answer: its host's reference count grows. */
  recordReference(url: string, now = new Date()): void {
    const host = hostOf(url);
    if (!host) return;
    this.count(host, 'references', now, url);
  }

  /** The host's profile, created on first use; marks it unsaved (its change is then in `unsaved`). */
  private entry(host: string, now: Date, url: string | undefined): HostHealthEntry {
    const entry = this.entries.get(host) ?? { failures: 0, successes: 0, paywalled: 0 };
    this.updates++;
    entry.firstSeen ??= now.toISOString();
    const change = this.unsaved.get(host) ?? {
      host,
      failures: 0,
      successes: 0,
      paywalled: 0,
      blocked: 0,
      references: 0,
    };
    if (url && /^https?:/i.test(url)) {
      entry.https = /^https:/i.test(url);
      change.https = entry.https;
    }
    this.entries.set(host, entry);
    this.unsaved.set(host, change);
    return entry;
  }

  /** The hosts changed since the last save, with what changed: what the runtime saves. */
  unsavedChanges(): HostHealthChange[] {
    return [...this.unsaved.values()].map((change) => {
      const entry = this.entries.get(change.host)!;
      return {
        ...change,
        ...(entry.firstSeen ? { firstSeen: entry.firstSeen } : {}),
        ...(entry.lastProblemAt ? { lastProblemAt: entry.lastProblemAt } : {}),
      };
    });
  }

  /**
   * The changes `sent` (default: all unsaved now) were saved: `saved` holds the profiles as stored
   * now (with what other processes added in between), which replace this runtime's. What changed
   * here while the save was on its way (a store in another process) stays unsaved, on top.
   */
  markSaved(saved: HostHealthSnapshot, sent: readonly HostHealthChange[] = this.unsavedChanges()): void {
    const sentByHost = new Map(sent.map((change) => [change.host, change]));
    for (const [host, entry] of Object.entries(saved)) {
      const change = this.unsaved.get(host);
      const rest = change && changeSince(change, sentByHost.get(host));
      if (rest) this.unsaved.set(host, rest);
      else this.unsaved.delete(host);
      if (isHostHealthEntry(entry)) this.absorb(host, entry);
    }
  }

  /** The profiles as stored now (read again): they replace this runtime's, its unsaved changes on top. */
  refresh(stored: HostHealthSnapshot): void {
    for (const [host, entry] of Object.entries(stored))
      if (isHostHealthEntry(entry)) this.absorb(host, entry);
  }

  private absorb(host: string, stored: HostHealthEntry): void {
    const change = this.unsaved.get(host);
    const local = this.entries.get(host);
    this.entries.set(
      host,
      change
        ? addChange(stored, { ...change, firstSeen: local?.firstSeen, lastProblemAt: local?.lastProblemAt })
        : { ...stored },
    );
  }

  /**
   * 0 (healthy) to 0.9 (reliably unusable): the share of problems among visits, paywalls and
   * blocks counting double, with less certainty for few visits and none once the last problem is
   * a month old.
   */
  penalty(host: string, now = new Date()): number {
    const entry = this.entries.get(host);
    if (!entry?.lastProblemAt) return 0;
    const ageDays = (now.getTime() - Date.parse(entry.lastProblemAt)) / 86_400_000;
    if (!(ageDays < forgetAfterDays)) return 0;
    const problems = entry.failures + 2 * (entry.paywalled + (entry.blocked ?? 0));
    const share = problems / (problems + entry.successes + 1);
    return Math.min(0.9, share);
  }

  /**
   * The trust profile of a domain (a host, or a URL whose host and scheme are used): what was
   * recorded plus the provisional score. A domain never seen gets a profile from its name alone.
   */
  trustOf(hostOrUrl: string): TrustProfile {
    const { host, https: urlHttps } = parseHostOrUrl(hostOrUrl);
    const entry = this.entries.get(host);
    const https = entry?.https ?? urlHttps;
    const counts = {
      failures: entry?.failures ?? 0,
      successes: entry?.successes ?? 0,
      paywalled: entry?.paywalled ?? 0,
      blocked: entry?.blocked ?? 0,
      references: entry?.references ?? 0,
    };
    return {
      host,
      seen: entry !== undefined,
      ...counts,
      ...(entry?.firstSeen ? { firstSeen: entry.firstSeen } : {}),
      ...(entry?.lastProblemAt ? { lastProblemAt: entry.lastProblemAt } : {}),
      ...(https === undefined ? {} : { https }),
      paywalledFlag: counts.paywalled > 0,
      blockedFlag: counts.blocked > 0,
      trust: trustScore({ host, https, ...counts }),
    };
  }

  /** Every recorded domain's profile. */
  profiles(): TrustProfile[] {
    return [...this.entries.keys()].map((host) => this.trustOf(host));
  }

  snapshot(): HostHealthSnapshot {
    return Object.fromEntries([...this.entries].map(([host, entry]) => [host, { ...entry }]));
  }
}

function parseHostOrUrl(input: string): { host: string; https?: boolean } {
  const trimmed = input.trim();
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(trimmed)) {
    try {
      const url = new URL(trimmed);
      return { host: url.hostname.replace(/^www\./, ''), https: url.protocol === 'https:' };
    } catch {
      // Not a URL after all: treated as a host name below.
    }
  }
  return {
    host: trimmed
      .toLowerCase()
      .replace(/^www\./, '')
      .replace(/\.$/, ''),
  };
}

/** Whether a saved profile has its counts (damaged records are skipped, entry by entry). */
export function isHostHealthEntry(value: unknown): value is HostHealthEntry {
  const entry = value as HostHealthEntry;
  return (
    typeof entry === 'object' &&
    entry !== null &&
    Number.isFinite(entry.failures) &&
    Number.isFinite(entry.successes) &&
    Number.isFinite(entry.paywalled) &&
    (entry.blocked === undefined || Number.isFinite(entry.blocked)) &&
    (entry.references === undefined || Number.isFinite(entry.references))
  );
}
