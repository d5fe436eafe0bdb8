/**
 * Times saving domain trust profiles after a run: a knowledge base file with --hosts profiles
 * (default 1,000), then --saves runs (default 200) that each change --changed hosts (default 10)
 * and save. Prints ms per save (p50, p95, max). `npx tsx bench/trust-save-bench.ts [--hosts N]`
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { createTrustRecords } from '../src/knowledge/trust-records.js';
import { HostHealth } from '../src/retrieval/host-health.js';

const { values } = parseArgs({
  options: {
    hosts: { type: 'string', default: '1000' },
    saves: { type: 'string', default: '200' },
    changed: { type: 'string', default: '10' },
  },
});
const hosts = Number(values.hosts);
const saves = Number(values.saves);
const changed = Number(values.changed);
const folder = mkdtempSync(join(tmpdir(), 'deepsearch-trust-bench-'));
const file = join(folder, 'knowledge.sqlite');
try {
  const seed = new HostHealth();
  for (let index = 0; index < hosts; index++) seed.recordUrl(`https://host${index}.example/`, 'ok');
  const seeding = createTrustRecords({ knowledgeFile: file })!;
  seeding.save(seed.unsavedChanges());
  seeding.close();

  const records = createTrustRecords({ knowledgeFile: file })!;
  const health = new HostHealth(records.load());
  const times: number[] = [];
  for (let run = 0; run < saves; run++) {
    for (let index = 0; index < changed; index++)
      health.recordUrl(
        `https://host${(run * changed + index) % hosts}.example/page`,
        index % 3 ? 'ok' : 'failed',
      );
    const start = performance.now();
    health.markSaved(records.save(health.unsavedChanges()));
    times.push(performance.now() - start);
  }
  times.sort((a, b) => a - b);
  const at = (share: number) => times[Math.min(times.length - 1, Math.floor(share * times.length))]!;
  const total = times.reduce((sum, time) => sum + time, 0);
  console.log(
    `${hosts} hosts, ${saves} saves of ${changed} changed hosts: p50 ${at(0.5).toFixed(3)} ms, p95 ${at(0.95).toFixed(3)} ms, max ${times.at(-1)!.toFixed(3)} ms, total ${total.toFixed(0)} ms`,
  );
  records.close();
} finally {
  rmSync(folder, { recursive: true, force: true });
}
