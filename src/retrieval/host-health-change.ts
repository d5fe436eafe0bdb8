import type { HostHealthChange, HostHealthEntry } from './host-health.js';

const countFields = ['failures', 'successes', 'paywalled', 'blocked', 'references'] as const;

/**
 * A stored profile with a runtime's change added, as every store adds them: counts add up, the
 * earliest first visit and the latest problem are kept, the https of the newest read wins.
 */
export function addChange(before: HostHealthEntry | undefined, change: HostHealthChange): HostHealthEntry {
  const firstSeen = earliest(before?.firstSeen, change.firstSeen);
  const lastProblemAt = latest(before?.lastProblemAt, change.lastProblemAt);
  const https = change.https ?? before?.https;
  return {
    failures: (before?.failures ?? 0) + change.failures,
    successes: (before?.successes ?? 0) + change.successes,
    paywalled: (before?.paywalled ?? 0) + change.paywalled,
    blocked: (before?.blocked ?? 0) + change.blocked,
    references: (before?.references ?? 0) + change.references,
    ...(firstSeen ? { firstSeen } : {}),
    ...(https === undefined ? {} : { https }),
    ...(lastProblemAt ? { lastProblemAt } : {}),
  };
}

/**
 * What is left of `change` once `sent` (an earlier copy of it, being saved) is stored: the counts
 * added since. Undefined when nothing was added.
 */
export function changeSince(
  change: HostHealthChange,
  sent: HostHealthChange | undefined,
): HostHealthChange | undefined {
  if (!sent) return change;
  const rest = { ...change };
  for (const field of countFields) rest[field] = Math.max(0, change[field] - sent[field]);
  return countFields.some((field) => rest[field] > 0) ? rest : undefined;
}

// ISO 8601 times of one format compare as strings.
const earliest = (a?: string, b?: string) => (a && b ? (a < b ? a : b) : (a ?? b));
const latest = (a?: string, b?: string) => (a && b ? (a > b ? a : b) : (a ?? b));
