import { randomBytes } from 'node:crypto';
import { linkSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import { AbortedError } from '../core/errors/index.js';

export interface PullLockOptions {
  signal?: AbortSignal;
  /** Told once, when another live process holds the lock and this one starts waiting. */
  onWait?: (holderPid: number) => void;
  /** How often a waiting pull looks again (default 500 ms). */
  pollMs?: number;
}

/** Locks this process holds: a second pull of the same model in this process waits too. */
const heldHere = new Set<string>();

/**
 * Runs `task` holding `<destination>.lock`: one pull of a model at a time, across processes. The
 * lock file holds its owner's pid; a pull that finds it held by a live process waits for it (and
 * `task` then usually finds the model installed); a lock left by a process that died is taken over.
 */
export async function withPullLock<T>(
  destination: string,
  task: () => Promise<T>,
  options: PullLockOptions = {},
): Promise<T> {
  const lock = `${destination}.lock`;
  let told = false;
  for (;;) {
    if (options.signal?.aborted) throw new AbortedError();
    if (!heldHere.has(lock) && placeLock(lock, 'new')) break;
    const holder = heldHere.has(lock) ? process.pid : holderOf(lock);
    if (holder !== undefined && (heldHere.has(lock) || (holder !== process.pid && isAlive(holder)))) {
      if (!told) options.onWait?.(holder);
      told = true;
      await sleep(options.pollMs ?? 500, undefined, { signal: options.signal }).catch(() => undefined);
      continue;
    }
    // Left by a process that is gone: replaced by ours, and read back (two takers: the last one wins).
    if (placeLock(lock, 'replace') && holderOf(lock) === process.pid) break;
  }
  heldHere.add(lock);
  try {
    return await task();
  } finally {
    heldHere.delete(lock);
    if (holderOf(lock) === process.pid) rmSync(lock, { force: true });
  }
}

/**
 * Puts a lock file holding our pid at `lock`, whole from the moment it appears: written aside, then
 * linked (fails when one is there) or renamed over a stale one.
 */
function placeLock(lock: string, how: 'new' | 'replace'): boolean {
  const aside = `${lock}.${process.pid}.${randomBytes(4).toString('hex')}`;
  writeFileSync(aside, `${process.pid}\n`);
  try {
    if (how === 'replace') renameSync(aside, lock);
    else linkSync(aside, lock);
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw error;
  } finally {
    rmSync(aside, { force: true });
  }
}

function holderOf(lock: string): number | undefined {
  try {
    const pid = Number.parseInt(readFileSync(lock, 'utf8'), 10);
    return Number.isInteger(pid) && pid > 0 ? pid : undefined;
  } catch {
    return undefined;
  }
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
