import { existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { withPullLock } from './pull-lock.js';

const destination = () => join(mkdtempSync(join(tmpdir(), 'pull-lock-')), 'model.gguf');
const tick = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('withPullLock', () => {
  it('runs one pull of a model at a time; the second waits and is told who holds it', async () => {
    const path = destination();
    const order: string[] = [];
    const waits: number[] = [];
    const first = withPullLock(path, async () => {
      order.push('first start');
      await tick(80);
      order.push('first end');
    });
    const second = withPullLock(path, async () => void order.push('second'), {
      pollMs: 10,
      onWait: (pid) => waits.push(pid),
    });
    await Promise.all([first, second]);
    expect(order).toEqual(['first start', 'first end', 'second']);
    expect(waits).toEqual([process.pid]);
    expect(existsSync(`${path}.lock`)).toBe(false);
  });

  it('waits for a lock held by another live process, and takes over one left by a dead one', async () => {
    const path = destination();
    writeFileSync(`${path}.lock`, `${process.ppid}\n`);
    let ran = false;
    const waiting = withPullLock(
      path,
      async () => {
        ran = true;
      },
      { pollMs: 10 },
    );
    await tick(60);
    expect(ran).toBe(false);
    // The holder is gone without removing its lock (pid 2^22 + 1 is past Linux's pid_max).
    writeFileSync(`${path}.lock`, `${2 ** 22 + 1}\n`);
    await waiting;
    expect(ran).toBe(true);
    expect(existsSync(`${path}.lock`)).toBe(false);
  });

  it('releases the lock when the pull fails', async () => {
    const path = destination();
    await expect(withPullLock(path, async () => Promise.reject(new Error('cut')))).rejects.toThrow('cut');
    expect(existsSync(`${path}.lock`)).toBe(false);
  });
});
