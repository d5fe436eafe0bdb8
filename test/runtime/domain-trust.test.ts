import { mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type BetterSqlite3 from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { KnowledgeStore } from '../../src/knowledge/knowledge-store.js';
import { createRuntime } from '../../src/runtime/create-runtime.js';
import { createScriptedLlm } from '../../src/testing/scripted-llm.js';
import { createTestConfig } from '../../src/testing/test-config.js';
import { runCliInMemory } from '../helpers/run-cli-in-memory.js';
import { tidesProviders, tidesSteps, tidesUrl } from '../helpers/tides-world.js';

let folder: string;
beforeEach(() => {
  folder = mkdtempSync(join(tmpdir(), 'deepsearch-trust-'));
});
afterEach(() => rmSync(folder, { recursive: true, force: true }));

function runOnce(file: string, options: { runs?: number; loadSqlite?: () => typeof BetterSqlite3 } = {}) {
  const llm = createScriptedLlm(Array.from({ length: options.runs ?? 1 }, tidesSteps).flat());
  const runtime = createRuntime({
    config: createTestConfig({ knowledge: { file } }),
    ...tidesProviders(),
    createModel: () => llm,
    loadSqlite: options.loadSqlite,
  });
  return { runtime, llm };
}

function cli(args: string[]) {
  return runCliInMemory(args, { env: { XDG_DATA_HOME: join(folder, 'data') }, cwd: folder });
}

describe('domain trust profiles across runs', () => {
  it('are kept in the knowledge base database and grow with every run', async () => {
    const file = join(folder, 'kb.sqlite');
    const first = runOnce(file);
    const { result } = await first.runtime.run({
      mode: 'search',
      question: 'How high do spring tides get in Brest?',
    });
    first.llm.assertConsumed();
    expect(result.references.map((reference) => reference.url)).toEqual([tidesUrl]);
    const afterFirst = first.runtime.trustOf('tides.example');
    expect(afterFirst).toMatchObject({ seen: true, references: 1, successes: 1, https: true });
    first.runtime.close();

    // A new runtime (the next process) starts from what the first saved.
    const second = runOnce(file);
    const before = second.runtime.trustOf('tides.example');
    expect(before).toMatchObject({ references: 1, successes: 1, firstSeen: afterFirst.firstSeen });
    expect(second.runtime.trustOf('walled.example')).toMatchObject({ blocked: 1, blockedFlag: true });
    await second.runtime.run({ mode: 'search', question: 'How high do spring tides get in Brest?' });
    second.llm.assertConsumed();
    const trusted = second.runtime.trustOf('tides.example');
    expect(trusted).toMatchObject({ references: 2, successes: 2, firstSeen: afterFirst.firstSeen });
    const walled = second.runtime.trustOf('walled.example');
    expect(walled.blocked).toBe(2);
    expect(trusted.trust.score).toBeGreaterThan(before.trust.score);
    expect(walled.trust.score).toBeLessThan(trusted.trust.score);
    second.runtime.close();

    // The same file is still a knowledge base, and the CLI reads the profiles from it.
    const store = new KnowledgeStore({ file, vectorBackend: 'exact-scan' });
    expect(store.stats().documents).toBe(0);
    store.close();
    const list = await cli(['trust', 'list', '--json', '--kb', file]);
    expect(list.code).toBe(0);
    const domains = JSON.parse(list.stdout).domains as Array<{ host: string; references: number }>;
    expect(domains.map((domain) => domain.host)).toEqual(['tides.example', 'walled.example']);
    expect(domains[0]!.references).toBe(2);
    const show = await cli(['trust', 'show', 'https://walled.example/other', '--kb', file]);
    expect(show.code).toBe(0);
    expect(show.stdout).toContain('walled.example');
    expect(show.stdout).toContain('reads: 0 ok, 0 failed, 2 blocked, 0 paywalled');
    expect(show.stdout).toContain('flags: blocked');
    expect(show.stdout).toMatch(/-0\.\d\d failed or blocked reads/);
  });

  it('are saved over one connection per runtime, released by close()', async () => {
    const file = join(folder, 'kb.sqlite');
    const Database = createRequire(import.meta.url)('better-sqlite3') as typeof BetterSqlite3;
    const opened: string[] = [];
    class Counting extends Database {
      constructor(filename: string, options?: BetterSqlite3.Options) {
        super(filename, options);
        opened.push(filename);
      }
    }
    const { runtime, llm } = runOnce(file, {
      runs: 3,
      loadSqlite: () => Counting as unknown as typeof BetterSqlite3,
    });
    await runtime.run({ mode: 'search', question: 'How high do spring tides get in Brest?' });
    await runtime.run({ mode: 'search', question: 'How high do spring tides get in Brest?' });
    expect(opened).toEqual([file]);
    runtime.close();
    // Still usable after close(): the next save opens the file again.
    await runtime.run({ mode: 'search', question: 'How high do spring tides get in Brest?' });
    llm.assertConsumed();
    expect(opened).toEqual([file, file]);
    runtime.close();
    const reader = runOnce(file).runtime;
    expect(reader.trustOf('tides.example')).toMatchObject({ references: 3, successes: 3 });
    expect(reader.trustOf('walled.example')).toMatchObject({ blocked: 3 });
    reader.close();
  });

  it('trust show explains an unseen domain by its name and refuses what is not a domain', async () => {
    const unseen = await cli(['trust', 'show', 'data.gov']);
    expect(unseen.code).toBe(0);
    expect(unseen.stdout).toContain('not seen yet');
    expect(unseen.stdout).toContain('+0.20 institutional domain');
    const bad = await cli(['trust', 'show', 'not a domain!']);
    expect(bad.code).not.toBe(0);
    expect(bad.stderr).toContain(
      '"not a domain!" is not a domain: pass a host name such as example.org, or a URL',
    );
    expect(bad.stderr.split('\n').filter(Boolean)).toHaveLength(1);
    const empty = await cli(['trust', 'list']);
    expect(empty.stdout).toContain('no domains yet');
  });
});
