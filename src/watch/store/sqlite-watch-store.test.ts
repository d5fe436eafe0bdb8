import { describe, expect, it } from 'vitest';
import { createSqliteWatchStore } from './sqlite-watch-store.js';

const newWatch = (id: string, owner: string, nextRunAt: number) => ({
  id,
  owner,
  name: id,
  question: `question of ${id}?`,
  mode: 'search' as const,
  schedule: { every: '1h', everyMs: 3_600_000 },
  notify: { url: 'https://hooks.example/x', secret: 's', format: 'json' as const },
  notifyAlways: false,
  createdAt: 1,
  nextRunAt,
});

describe('the watch store (SQLite)', () => {
  it('keeps watches per owner, patches them, and deletes one with its checks and notifications', async () => {
    const store = createSqliteWatchStore({ file: ':memory:' });
    await store.create(newWatch('w1', 'key:a', 100));
    await store.create(newWatch('w2', 'key:b', 100));
    expect((await store.list('key:a')).map((watch) => watch.id)).toEqual(['w1']);
    expect(await store.get('w1', 'key:b')).toBeUndefined();
    expect(await store.get('w1', 'key:a')).toMatchObject({ notify: { secret: 's' }, paused: false });
    expect(await store.update('w1', { paused: true, notify: null, name: 'renamed' })).toMatchObject({
      paused: true,
      notify: null,
      name: 'renamed',
    });
    expect(await store.due(1000, 10)).toMatchObject([{ id: 'w2' }]);
    await store.addRun({
      id: 'r1',
      watchId: 'w2',
      runId: 'run_1',
      status: 'ok',
      startedAt: 5,
      finishedAt: 6,
      changes: [],
      summary: 'no change',
      error: null,
      answer: { answer: 'A.', references: [] },
    });
    await store.addNotification({
      id: 'n1',
      watchId: 'w2',
      watchRunId: 'r1',
      url: 'https://hooks.example/x',
      secret: null,
      format: 'json',
      body: '{}',
      attempts: 0,
      nextAttemptAt: 0,
      lastError: null,
    });
    expect((await store.lastOkRun('w2'))?.answer).toEqual({ answer: 'A.', references: [] });
    expect(await store.delete('w2')).toBe(true);
    expect(await store.runs('w2', 10)).toEqual([]);
    expect(await store.dueNotifications(10, 10)).toEqual([]);
    await store.close();
  });

  it('lets one holder have a watch; a scheduled claim only while it is due; a lease that lapsed frees it', async () => {
    const store = createSqliteWatchStore({ file: ':memory:' });
    await store.create(newWatch('w1', 'local', 100));
    expect(await store.claim('w1', 100, 50, { scheduled: true })).toBe(true);
    expect(await store.claim('w1', 120, 50)).toBe(false);
    expect(await store.renew('w1', 140, 200)).toBe(true);
    expect(await store.claim('w1', 160, 50)).toBe(false);
    await store.release('w1', { lastRunAt: 100, nextRunAt: 1000 });
    // Released and no longer due: a scheduled claim (another node that saw the old tick) is refused.
    expect(await store.claim('w1', 200, 50, { scheduled: true })).toBe(false);
    expect(await store.claim('w1', 200, 50)).toBe(true);
    // Its holder died: after the lease, renewal fails and another may take it.
    expect(await store.renew('w1', 300, 400)).toBe(false);
    expect(await store.claim('w1', 300, 50)).toBe(true);
    await store.close();
  });
});
