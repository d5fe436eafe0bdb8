import { maskProxyUrl } from '../../config/proxy-settings.js';
import { type DomainRow, entryOf } from '../../knowledge/trust-records.js';
import type { TrustStore } from '../../knowledge/trust-store.js';
import type { HostHealthChange } from '../../retrieval/host-health.js';
import type { PostgresDatabase } from './postgres-database.js';

// As trust-records.ts reads them: https as 0/1.
const columns =
  'host, first_seen, reference_count, failures, successes, paywalled, blocked, https::integer AS https, last_problem_at';

/**
 * Domain trust in Postgres. A save is one upsert that adds the changes to the stored row in the
 * database itself (no read-modify-write), so two workers saving the same domain at once both
 * count. ISO 8601 times compare as text ("C" collation), as the SQLite records compare them.
 */
export function createPostgresTrustStore(options: { database: PostgresDatabase; url: string }): TrustStore {
  const { database } = options;
  return {
    location: maskProxyUrl(options.url),
    async load() {
      const { rows } = await database.query<DomainRow>(`SELECT ${columns} FROM domains`);
      return Object.fromEntries(rows.map((row) => [row.host, entryOf(row)]));
    },
    async save(changes) {
      const merged = combineByHost(changes);
      if (merged.length === 0) return {};
      const column = <T>(pick: (change: HostHealthChange) => T) => merged.map(pick);
      const { rows } = await database.query<DomainRow>(
        `INSERT INTO domains AS d (host, first_seen, reference_count, failures, successes, paywalled, blocked, https, last_problem_at)
         SELECT * FROM unnest($1::text[], $2::text[], $3::integer[], $4::integer[], $5::integer[], $6::integer[],
           $7::integer[], $8::boolean[], $9::text[])
         ON CONFLICT (host) DO UPDATE SET
           first_seen = least(d.first_seen, EXCLUDED.first_seen),
           reference_count = d.reference_count + EXCLUDED.reference_count,
           failures = d.failures + EXCLUDED.failures,
           successes = d.successes + EXCLUDED.successes,
           paywalled = d.paywalled + EXCLUDED.paywalled,
           blocked = d.blocked + EXCLUDED.blocked,
           https = coalesce(EXCLUDED.https, d.https),
           last_problem_at = greatest(d.last_problem_at, EXCLUDED.last_problem_at)
         RETURNING ${columns}`,
        [
          column((change) => change.host),
          column((change) => change.firstSeen ?? null),
          column((change) => change.references),
          column((change) => change.failures),
          column((change) => change.successes),
          column((change) => change.paywalled),
          column((change) => change.blocked),
          column((change) => change.https ?? null),
          column((change) => change.lastProblemAt ?? null),
        ],
      );
      return Object.fromEntries(rows.map((row) => [row.host, entryOf(row)]));
    },
    close: () => database.close(),
  };
}

/** One change per host (an upsert may touch a row once), the later https and the outer times kept. */
function combineByHost(changes: readonly HostHealthChange[]): HostHealthChange[] {
  const byHost = new Map<string, HostHealthChange>();
  for (const change of changes) {
    const before = byHost.get(change.host);
    if (!before) {
      byHost.set(change.host, { ...change });
      continue;
    }
    for (const field of ['failures', 'successes', 'paywalled', 'blocked', 'references'] as const)
      before[field] += change[field];
    before.https = change.https ?? before.https;
    if (change.firstSeen && (!before.firstSeen || change.firstSeen < before.firstSeen))
      before.firstSeen = change.firstSeen;
    if (change.lastProblemAt && (!before.lastProblemAt || change.lastProblemAt > before.lastProblemAt))
      before.lastProblemAt = change.lastProblemAt;
  }
  return [...byHost.values()];
}
