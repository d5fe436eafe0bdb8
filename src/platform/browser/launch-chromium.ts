import { accessSync, constants } from 'node:fs';
import type { Browser } from 'playwright-core';
import { ConfigError } from '../../core/errors/index.js';

/**
 * Headless Chromium for what needs a real browser on this machine (printing a report to PDF; a
 * page reader that runs pages' scripts). One browser per process, started on first use and
 * shared; each caller opens its own context and closes it.
 */

/** Where Chromium usually is when no setting names it (Debian/Ubuntu packages, Google Chrome). */
const defaultPaths = [
  '/usr/bin/chromium',
  '/usr/bin/chromium-browser',
  '/usr/bin/google-chrome',
  '/usr/bin/google-chrome-stable',
];

/**
 * Headless, and nothing the browser would fetch on its own (updates, sync, field trials, QUIC probes). The browser
 * reader sends pages' requests through its guard proxy; two paths would go around any proxy, so
 * they are shut: Chromium's own DNS (every name fails here; proxied requests never resolve
 * locally) and WebRTC's UDP (STUN, mDNS), which is only allowed through a proxy, i.e. never.
 */
/**
 * The JavaScript heap one page's renderer may grow to (V8's old space): past it the renderer
 * crashes and the read fails, rather than Chromium's default of several GB (a page grew one to
 * 4.9 GB before it crashed on its own).
 */
export const pageHeapMb = 512;

export const chromiumFlags = [
  '--headless',
  `--js-flags=--max-old-space-size=${pageHeapMb}`,
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--host-resolver-rules=MAP * ~NOTFOUND , EXCLUDE 127.0.0.1',
  '--webrtc-ip-handling-policy=disable_non_proxied_udp',
];

export type ChromiumStatus =
  | { available: true; executablePath: string }
  | { available: false; reason: string };

/**
 * The executable to run: the configured path (`reader.chromiumPath`, DEEPSEARCH_CHROMIUM_PATH,
 * --chromium-path; the browser reader and PDF export share it) when set, which must then exist;
 * else the first usual path that does.
 */
export function findChromium(configured: string | undefined): ChromiumStatus {
  if (configured) {
    return isExecutable(configured)
      ? { available: true, executablePath: configured }
      : {
          available: false,
          reason: `Chromium is not at ${configured} (DEEPSEARCH_CHROMIUM_PATH): install it or fix the path`,
        };
  }
  const found = defaultPaths.find(isExecutable);
  return found
    ? { available: true, executablePath: found }
    : {
        available: false,
        reason: `no Chromium found on this machine (looked at ${defaultPaths.join(', ')}): install it (apt-get install chromium) or set DEEPSEARCH_CHROMIUM_PATH`,
      };
}

let shared: { path: string; browser: Promise<Browser> } | undefined;

/** The process's browser, launched on first use (again after it closed or crashed). */
export async function launchChromium(status: ChromiumStatus): Promise<Browser> {
  if (!status.available) throw new ConfigError(status.reason, { code: 'chromium_missing' });
  if (shared?.path === status.executablePath) return shared.browser;
  const previous = shared;
  const browser = startBrowser(status.executablePath);
  shared = { path: status.executablePath, browser };
  if (previous) void previous.browser.then((old) => old.close()).catch(() => undefined);
  browser.then(
    (started) =>
      started.on('disconnected', () => {
        if (shared?.browser === browser) shared = undefined;
      }),
    () => {
      if (shared?.browser === browser) shared = undefined;
    },
  );
  return browser;
}

/** Closes the shared browser if one was started (a server's shutdown, a test's end). */
export async function closeChromium(): Promise<void> {
  const current = shared;
  shared = undefined;
  if (current) await (await current.browser.catch(() => undefined))?.close();
}

/**
 * Chromium's own sandbox (each renderer in its namespaces, seccomp) is kept wherever it can run:
 * not as root (Chromium refuses it there: a container's usual user) and where the kernel lets an
 * unprivileged user make namespaces. Elsewhere, and when a sandboxed start fails, the browser runs
 * with `--no-sandbox`; the guard proxy and the closed DNS and UDP paths hold either way.
 */
export function sandboxChoice(uid = process.getuid?.()): { sandbox: boolean; reason?: string } {
  if (uid === 0) return { sandbox: false, reason: 'running as root, where Chromium cannot use its sandbox' };
  return { sandbox: true };
}

/** Why the last start ran without the sandbox (doctor and the server's start line say it). */
export let unsandboxedReason: string | undefined;

async function startBrowser(executablePath: string): Promise<Browser> {
  const { chromium } = await import('playwright-core');
  const launch = (sandbox: boolean) =>
    chromium.launch({
      executablePath,
      args: sandbox ? chromiumFlags : [...chromiumFlags, '--no-sandbox'],
      chromiumSandbox: sandbox,
      // The server handles its own signals and closes the browser on shutdown.
      handleSIGINT: false,
      handleSIGTERM: false,
      handleSIGHUP: false,
      timeout: 30_000,
    });
  const choice = sandboxChoice();
  try {
    if (choice.sandbox) {
      try {
        const browser = await launch(true);
        unsandboxedReason = undefined;
        return browser;
      } catch (error) {
        // No user namespaces here (a locked-down kernel or container): without the sandbox.
        unsandboxedReason = `the sandbox did not start: ${(error as Error).message.split('\n')[0]}`;
      }
    } else unsandboxedReason = choice.reason;
    return await launch(false);
  } catch (error) {
    throw new ConfigError(
      `Chromium at ${executablePath} did not start: ${(error as Error).message.split('\n')[0]}`,
      { code: 'chromium_failed', cause: error },
    );
  }
}

function isExecutable(path: string): boolean {
  try {
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}
