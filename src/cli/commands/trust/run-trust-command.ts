import { resolve } from 'node:path';
import { InputError } from '../../../errors/index.js';
import { createTrustRecords } from '../../../knowledge/trust-records.js';
import { HostHealth, type TrustProfile } from '../../../retrieval/host-health.js';
import type { CliIo } from '../../io/cli-io.js';
import { createTerminal, type Terminal } from '../../io/terminal-style.js';
import { loadCliConfig } from '../../setup/load-cli-config.js';
import type { TrustCommandInput } from './trust-command.js';

const domainPattern = /^[a-z0-9](?:[a-z0-9-]*[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]*[a-z0-9])?)*$/;

/** `deepsearch trust list|show`: reads the profiles, never writes them. */
export function runTrustCommand(io: CliIo, input: TrustCommandInput): void {
  const config = loadCliConfig(io, {}, input.flags.config);
  const records = createTrustRecords({
    jsonFile: config.retrieval.hostHealthFile,
    knowledgeFile: input.flags.kb ? resolve(io.cwd, input.flags.kb) : config.knowledge.file,
  })!;
  const health = new HostHealth(records.load());
  records.close();
  const out = createTerminal(io.stdout, io.env);
  if (input.action === 'list') {
    const profiles = health
      .profiles()
      .sort(
        (a, b) =>
          b.trust.score - a.trust.score || b.references - a.references || a.host.localeCompare(b.host),
      );
    if (input.flags.json) {
      io.stdout.write(`${JSON.stringify({ file: records.file, domains: profiles })}\n`);
      return;
    }
    if (profiles.length === 0) {
      io.stdout.write(
        `no domains yet in ${records.file}: profiles grow as deepsearch ask reads and cites pages\n`,
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
    io.stdout.write(`${JSON.stringify({ file: records.file, ...profile })}\n`);
    return;
  }
  io.stdout.write(`${showLines(profile, out).join('\n')}\n`);
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
