import { resolve } from 'node:path';
import type { DeepSearchConfig } from '../../../config/config-schema.js';
import { InputError } from '../../../core/errors/index.js';
import { createTrustRecords } from '../../../knowledge/trust-records.js';
import { type TrustStore, toTrustStore } from '../../../knowledge/trust-store.js';
import { HostHealth, type TrustProfile } from '../../../retrieval/host-health.js';
import type { CliIo } from '../../io/cli-io.js';
import { createTerminal, type Terminal } from '../../io/terminal-style.js';
import { loadCliConfig } from '../../setup/load-cli-config.js';
import type { TrustCommandInput } from './trust-command.js';

const domainPattern = /^[a-z0-9](?:[a-z0-9-]*[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]*[a-z0-9])?)*$/;

/**
 * `deepsearch trust list|show`: reads the profiles, never writes them. In queue mode (both
 * DEEPSEARCH_REDIS_URL and DEEPSEARCH_DATABASE_URL set) they are the deployment's, in Postgres,
 * unless --kb names a local file.
 */
export async function runTrustCommand(io: CliIo, input: TrustCommandInput): Promise<void> {
  const config = loadCliConfig(io, {}, input.flags.config);
  const records = await openTrustProfiles(config, input.flags.kb && resolve(io.cwd, input.flags.kb));
  let health: HostHealth;
  try {
    health = new HostHealth(await records.load());
  } finally {
    await records.close();
  }
  const out = createTerminal(io.stdout, io.env);
  if (input.action === 'list') {
    const profiles = health
      .profiles()
      .sort(
        (a, b) =>
          b.trust.score - a.trust.score || b.references - a.references || a.host.localeCompare(b.host),
      );
    if (input.flags.json) {
      io.stdout.write(`${JSON.stringify({ file: records.location, domains: profiles })}\n`);
      return;
    }
    if (profiles.length === 0) {
      io.stdout.write(
        `no domains yet in ${records.location}: profiles grow as deepsearch ask reads and cites pages\n`,
      );
      return;
    }
    io.stdout.write(
      out.style('dim', 'score  cited  read ok/failed/blocked/paywalled  https  first seen  domain\n'),
    );
    for (const profile of profiles) io.stdout.write(`${listLine(profile, out)}\n`);
    return;
  }
  const profile = health.trustOf(domainOf(input.domain ?? ''));
  if (input.flags.json) {
    io.stdout.write(`${JSON.stringify({ file: records.location, ...profile })}\n`);
    return;
  }
  io.stdout.write(`${showLines(profile, out).join('\n')}\n`);
}

/** Queue mode's Postgres (what every worker saves to), or the local knowledge base file / JSON file. */
async function openTrustProfiles(config: DeepSearchConfig, kbFile: string | undefined): Promise<TrustStore> {
  const { databaseUrl, redisUrl } = config.scale;
  if (!kbFile && databaseUrl && redisUrl) {
    // Loaded only in queue mode, with pg behind them.
    const [{ createPostgresDatabase }, { createPostgresTrustStore }] = await Promise.all([
      import('../../../scale/postgres/postgres-database.js'),
      import('../../../scale/postgres/postgres-trust-store.js'),
    ]);
    return createPostgresTrustStore({
      database: createPostgresDatabase({ url: databaseUrl }),
      url: databaseUrl,
    });
  }
  return toTrustStore(
    createTrustRecords({
      jsonFile: config.retrieval.hostHealthFile,
      knowledgeFile: kbFile ?? config.knowledge.file,
    })!,
  );
}

function domainOf(input: string): string {
  const trimmed = input.trim();
  const host = /^[a-z][a-z0-9+.-]*:\/\//i.test(trimmed)
    ? URL.canParse(trimmed)
      ? new URL(trimmed).hostname
      : ''
    : trimmed.toLowerCase();
  if (!domainPattern.test(host.replace(/\.$/, ''))) {
    throw new InputError(`"${input}" is not a domain: pass a host name such as example.org, or a URL`, {
      param: 'domain',
    });
  }
  // A URL keeps its scheme: an unseen domain's score then counts https.
  return trimmed.includes('://') ? trimmed : host;
}

function listLine(profile: TrustProfile, out: Terminal): string {
  const reads = `${profile.successes}/${profile.failures}/${profile.blocked}/${profile.paywalled}`;
  const https = profile.https === undefined ? '?' : profile.https ? 'yes' : 'no';
  return [
    out.style(profile.trust.score >= 0.5 ? 'green' : 'yellow', profile.trust.score.toFixed(2).padEnd(5)),
    String(profile.references).padStart(5),
    `  ${reads.padEnd(33)}`,
    https.padEnd(5),
    (profile.firstSeen ?? '').slice(0, 10).padEnd(11),
    profile.host,
  ].join(' ');
}

function showLines(profile: TrustProfile, out: Terminal): string[] {
  const lines = [
    `${out.style('bold', profile.host)}  trust ${profile.trust.score.toFixed(2)} (provisional, offline heuristics)`,
  ];
  if (!profile.seen) lines.push('not seen yet: the score rests on the name alone');
  else {
    lines.push(
      `first seen: ${profile.firstSeen ?? 'unknown'}`,
      `cited in final answers: ${profile.references}`,
      `reads: ${profile.successes} ok, ${profile.failures} failed, ${profile.blocked} blocked, ${profile.paywalled} paywalled`,
      `https: ${profile.https === undefined ? 'unknown' : profile.https ? 'yes' : 'no'}`,
    );
    const flags = [profile.paywalledFlag && 'paywalled', profile.blockedFlag && 'blocked'].filter(Boolean);
    if (flags.length > 0) lines.push(`flags: ${flags.join(', ')}`);
    if (profile.lastProblemAt) lines.push(`last problem: ${profile.lastProblemAt}`);
  }
  lines.push('why:');
  for (const { reason, delta } of profile.trust.reasons)
    lines.push(`  ${delta > 0 ? '+' : ''}${delta.toFixed(2)} ${reason}`);
  if (profile.trust.reasons.length === 0) lines.push('  nothing known either way: 0.50');
  return lines;
}
