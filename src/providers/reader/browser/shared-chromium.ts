import type { Browser } from 'playwright-core';
import { createSemaphore } from '../../../core/semaphore.js';
import {
  type ChromiumStatus,
  closeChromium,
  launchChromium,
} from '../../../platform/browser/launch-chromium.js';

/** Pages rendered at once in this process; each is a renderer process and its memory. */
const maxConcurrentReads = 4;
/** How long the browser stays up after the last read: bursts of reads share one launch. */
const idleCloseMs = 10_000;

const limit = createSemaphore({ max: maxConcurrentReads });
let inFlight = 0;
let idleTimer: NodeJS.Timeout | undefined;
/** The browser the last read used, to close when idle (never launched just to be closed). */
let lastBrowser: Browser | undefined;

/**
 * Runs `task` with the process's Chromium (launched on first use, again after a crash), at most
 * `maxConcurrentReads` at a time. When no read has run for `idleCloseMs`, the browser is closed
 * (unless another user, such as a PDF export, has a context open in it): a library caller's
 * process can then exit, and an idle server gives the memory back.
 */
export function useChromium<T>(
  status: ChromiumStatus,
  task: (browser: Browser) => Promise<T>,
  signal?: AbortSignal,
): Promise<T> {
  return limit.run(async () => {
    inFlight++;
    clearTimeout(idleTimer);
    try {
      lastBrowser = await launchChromium(status);
      return await task(lastBrowser);
    } finally {
      inFlight--;
      if (inFlight === 0) scheduleIdleClose();
    }
  }, signal);
}

/** Launches the browser ahead of the first read (a reader's prepare); closed again when left idle. */
export async function warmChromium(status: ChromiumStatus): Promise<void> {
  lastBrowser = await launchChromium(status);
  if (inFlight === 0) scheduleIdleClose();
}

function scheduleIdleClose(): void {
  clearTimeout(idleTimer);
  idleTimer = setTimeout(() => {
    const browser = lastBrowser;
    if (inFlight > 0 || !browser?.isConnected() || browser.contexts().length > 0) return;
    lastBrowser = undefined;
    void closeChromium().catch(() => undefined);
  }, idleCloseMs);
  // The timer alone never keeps a process alive; the browser's pipes do until it closes.
  idleTimer.unref();
}
