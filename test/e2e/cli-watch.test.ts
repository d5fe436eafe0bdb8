import { createHmac } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FakeHttpServer } from '../../src/testing/fake-http-server.js';
import { startFakeHttpServer } from '../../src/testing/fake-http-server.js';
import { createSqliteWatchStore } from '../../src/watch/store/sqlite-watch-store.js';
import { runBuiltCli } from '../helpers/run-built-cli.js';
import { serveBuiltCli } from '../helpers/serve-built-cli.js';
import { startWatchWorld, type WatchWorld, watchQuestion } from '../helpers/watch-world.js';

// A page whose facts change between checks (test/helpers/watch-world.ts): the length (a number),
// then the opening date, then the same facts in other words. The fake model answers from the page.
const question = watchQuestion;
const secret = 'watch-test-secret';

let world: WatchWorld;
let hook: FakeHttpServer;
let folder: string;
let pageUrl: string;

beforeAll(async () => {
  folder = mkdtempSync(join(tmpdir(), 'deepsearch-watch-'));
  world = await startWatchWorld();
  pageUrl = world.pageUrl;
  hook = await startFakeHttpServer((_request, response) => {
    response.writeHead(204);
    response.end();
  });
});

afterAll(async () => {
  await Promise.all([world?.close(), hook?.close()]);
  rmSync(folder, { recursive: true, force: true });
});

const env = () => ({ ...world.env, DEEPSEARCH_RUNS_FILE: join(folder, 'runs.sqlite') });

interface Posted {
  watch: { id: string; name: string; question: string };
  run: { id: string; url: string | null };
  changed: boolean;
  changes: Array<{
    kind: string;
    before?: string;
    after?: string;
    sources: Array<{ url: string; quote: string }>;
  }>;
  summary: string;
}

describe('deepsearch watch (built CLI, fake LLM, local web and webhook)', () => {
  it('posts exactly what changed, signed, with before, after and sources; nothing for a rewording', async () => {
    const added = await runBuiltCli(
      [
        'watch',
        'add',
        question,
        '--every',
        '1d',
        '--notify',
        `${hook.url}/hook`,
        '--notify-secret',
        secret,
        '--name',
        'Orlin Bridge',
      ],
      env(),
    );
    expect(added.code, added.stderr).toBe(0);
    const id = added.stdout.trim();
    expect(id).toMatch(/^watch_/);

    const posts: Posted[] = [];
    const check = async (expected: number) => {
      const run = await runBuiltCli(['watch', 'run', id], env(), { timeoutMs: 60_000 });
      expect(run.code, run.stderr).toBe(0);
      const hooks = hook.requests.filter((request) => request.path === '/hook');
      expect(hooks.length).toBe(expected);
      return run;
    };
    // The first check is the baseline: nothing to compare with, nothing posted.
    const first = await check(0);
    expect(first.stdout).toContain('baseline');

    world.phase = 1;
    await check(1);
    world.phase = 2;
    await check(2);
    world.phase = 3;
    await check(2);

    for (const request of hook.requests) {
      expect(request.method).toBe('POST');
      const signature = request.headers['x-deepsearch-signature'];
      expect(signature).toBe(`sha256=${createHmac('sha256', secret).update(request.body).digest('hex')}`);
      posts.push(JSON.parse(request.body) as Posted);
    }
    const [lengthChange, dateChange] = posts;
    expect(lengthChange!.watch).toEqual({ id, name: 'Orlin Bridge', question });
    expect(lengthChange!.changed).toBe(true);
    expect(lengthChange!.changes).toEqual([
      {
        kind: 'changed',
        before: 'The Orlin Bridge is 412 metres long.',
        after: 'The Orlin Bridge is 436 metres long.',
        sources: [
          { url: pageUrl, quote: 'The Orlin Bridge is 412 metres long' },
          { url: pageUrl, quote: 'The Orlin Bridge is 436 metres long' },
        ],
      },
    ]);
    expect(dateChange!.changes).toEqual([
      {
        kind: 'changed',
        before: 'The Orlin Bridge opened to traffic on 3 May 1998.',
        after: 'The Orlin Bridge opened to traffic on 9 June 1998.',
        sources: [
          { url: pageUrl, quote: 'The Orlin Bridge opened to traffic on 3 May 1998' },
          { url: pageUrl, quote: 'The Orlin Bridge opened to traffic on 9 June 1998' },
        ],
      },
    ]);
    expect(lengthChange!.run.id).toMatch(/^run_/);

    // Every check's run is a run like any other: kept, listed, started by the watch.
    const listed = await runBuiltCli(['runs', 'list', '--json'], env());
    const runs = JSON.parse(listed.stdout) as Array<{ id: string; source: string; question: string }>;
    expect(runs.filter((run) => run.source === 'watch' && run.question === question)).toHaveLength(4);

    const shown = await runBuiltCli(['watch', 'show', id, '--json'], env());
    const watch = JSON.parse(shown.stdout) as {
      runs: Array<{ status: string; changes: unknown[] }>;
      notify: Record<string, unknown>;
    };
    expect(watch.runs.map((run) => run.status)).toEqual(['ok', 'ok', 'ok', 'ok']);
    expect(watch.runs.map((run) => run.changes.length)).toEqual([0, 1, 1, 0]);
    expect(JSON.stringify(watch)).not.toContain(secret);
    expect(watch.notify).toEqual({ url: `${hook.url}/hook`, format: 'json', signed: true });
    const text = await runBuiltCli(['watch', 'show', id.slice(0, 10)], env());
    expect(text.code, text.stderr).toBe(0);
    expect(text.stdout).toContain('~ changed  before: The Orlin Bridge is 412 metres long.');
    expect(text.stdout).toContain('after:  The Orlin Bridge is 436 metres long.');
    expect(text.stdout).toContain(`after source: ${pageUrl} “The Orlin Bridge is 436 metres long”`);
    expect(text.stdout).not.toContain(secret);
    const listedWatches = await runBuiltCli(['watch', 'list'], env());
    expect(listedWatches.stdout).toContain(id);
    expect(listedWatches.stdout).toContain('every 1d');
  }, 240_000);

  it('refuses a bad schedule or a webhook on a private address, saying what to fix (exit 2)', async () => {
    const badDuration = await runBuiltCli(['watch', 'add', question, '--every', 'often'], env());
    expect(badDuration.code).toBe(2);
    expect(badDuration.stderr).toContain('--every must be a duration such as 30m, 6h, 1d or 1w');
    const badCron = await runBuiltCli(['watch', 'add', question, '--cron', 'every monday'], env());
    expect(badCron.code).toBe(2);
    expect(badCron.stderr).toContain('--cron must be a cron pattern');
    const tooOften = await runBuiltCli(['watch', 'add', question, '--every', '10s'], env());
    expect(tooOften.code).toBe(2);
    expect(tooOften.stderr).toContain('--every must be at least 1 minute');
    const { DEEPSEARCH_ALLOW_PRIVATE_NETWORK: _allowed, ...guarded } = env();
    const privateHook = await runBuiltCli(
      ['watch', 'add', question, '--every', '1h', '--notify', `${hook.url}/hook`],
      guarded,
    );
    expect(privateHook.code).toBe(2);
    expect(privateHook.stderr).toContain('--notify: refusing to fetch');
    const listed = await runBuiltCli(['watch', 'list', '--json'], env());
    expect((JSON.parse(listed.stdout) as unknown[]).length).toBe(1);
  }, 60_000);

  it('watch run-due checks each due watch once and exits; a second call finds none due', async () => {
    const dueEnv = { ...env(), DEEPSEARCH_RUNS_FILE: join(folder, 'due-runs.sqlite') };
    const added = await runBuiltCli(['watch', 'add', question, '--every', '1h'], dueEnv);
    const id = added.stdout.trim();
    const first = await runBuiltCli(['watch', 'run-due'], dueEnv, { timeoutMs: 60_000 });
    expect(first.code, first.stderr).toBe(0);
    expect(first.stdout).toMatch(new RegExp(`^${id}  ok  first check: 3 claims kept as the baseline\n$`));
    const second = await runBuiltCli(['watch', 'run-due'], dueEnv);
    expect(second.code, second.stderr).toBe(0);
    expect(second.stdout).toBe('');
    expect(second.stderr).toContain('0 due watch(es) checked');
    const paused = await runBuiltCli(['watch', 'pause', id], dueEnv);
    expect(paused.code).toBe(0);
    const shown = JSON.parse((await runBuiltCli(['watch', 'show', id, '--json'], dueEnv)).stdout);
    expect(shown).toMatchObject({ paused: true, next_run_at: null });
    expect(shown.runs).toHaveLength(1);
    const removed = await runBuiltCli(['watch', 'remove', id], dueEnv);
    expect(removed.code).toBe(0);
    const missing = await runBuiltCli(['watch', 'show', id], dueEnv);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain(`no watch '${id}'`);
  }, 120_000);

  it('serve runs due watches on its timer; stopped across three ticks, it catches up with one check', async () => {
    const serveEnv = {
      ...env(),
      DEEPSEARCH_RUNS_FILE: join(folder, 'serve-runs.sqlite'),
      DEEPSEARCH_WATCH_MIN_INTERVAL_MS: '1000',
      DEEPSEARCH_WATCH_CHECK_MS: '100',
    };
    const interval = 3000;
    const added = await runBuiltCli(['watch', 'add', question, '--every', '3s'], serveEnv);
    expect(added.code, added.stderr).toBe(0);
    const id = added.stdout.trim();
    const store = createSqliteWatchStore({ file: serveEnv.DEEPSEARCH_RUNS_FILE });
    const checks = async () => (await store.runs(id, 100)).reverse();
    const until = async (condition: () => Promise<boolean>, timeoutMs: number) => {
      const end = Date.now() + timeoutMs;
      while (!(await condition())) {
        if (Date.now() > end) throw new Error('timed out');
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    };
    try {
      let server = await serveBuiltCli(serveEnv);
      // The baseline at once, then one more on the next tick.
      await until(async () => (await checks()).length >= 2, 30_000);
      expect(await server.stop()).toBe(0);
      const before = (await checks()).length;
      const stoppedAt = Date.now();
      // Down across three ticks.
      await new Promise((resolve) => setTimeout(resolve, 3 * interval + 500));
      expect((await checks()).length).toBe(before);
      const restartedAt = Date.now();
      server = await serveBuiltCli(serveEnv);
      await until(async () => (await checks()).length > before, 30_000);
      const firstAfter = (await checks())[before]!;
      // Wait until a second catch-up check would have started, had missed ticks been run one by one.
      await new Promise((resolve) =>
        setTimeout(resolve, Math.max(0, firstAfter.startedAt + interval - 500 - Date.now())),
      );
      const after = (await checks()).filter((check) => check.startedAt >= stoppedAt);
      expect(after).toHaveLength(1);
      expect(after[0]!.startedAt).toBeGreaterThanOrEqual(restartedAt);
      expect(after[0]!.status).toBe('ok');
      expect(await server.stop()).toBe(0);
      // Every check of the watch: one interval apart at least (never two at once, no burst).
      const starts = (await checks()).map((check) => check.startedAt);
      for (let index = 1; index < starts.length; index++)
        expect(starts[index]! - starts[index - 1]!).toBeGreaterThanOrEqual(interval);
    } finally {
      await store.close();
    }
  }, 120_000);
});
