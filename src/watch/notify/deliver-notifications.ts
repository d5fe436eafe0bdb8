import { assertUrlAllowed } from '../../platform/http/network-guard.js';
import type { WatchStore } from '../store/watch-store.js';
import type { PendingNotification } from '../watch-record.js';
import { signatureHeader, signBody } from './sign-body.js';

export interface DeliveryOptions {
  store: WatchStore;
  /** The guarded outbound fetch (createOutboundFetch with the network guard). */
  fetch: typeof globalThis.fetch;
  /** The network guard's setting (reader.allowPrivateNetwork): loopback and private hosts are refused without it. */
  allowPrivateNetwork: boolean;
  /** Tries before a notification is dropped (watch.notifyAttempts). */
  maxAttempts: number;
  now?: () => number;
  /** The first retry's wait; each next one doubles it, up to an hour. */
  backoffMs?: number;
  timeoutMs?: number;
  /** What went wrong, for the process's log (never the secret). */
  onProblem?: (message: string) => void;
}

const leaseMs = 60_000;

/**
 * Posts every notification due now, once each across processes (claimNotification): a 2xx drops
 * it, a failure (refused by the guard, a network error, any other status) is tried again later
 * with backoff, until `maxAttempts`. Returns how many were sent.
 */
export async function deliverDueNotifications(options: DeliveryOptions): Promise<number> {
  const now = options.now ?? Date.now;
  let sent = 0;
  for (const notification of await options.store.dueNotifications(now(), 50)) {
    if (!(await options.store.claimNotification(notification.id, now(), leaseMs))) continue;
    if (await deliverOne(notification, options)) sent++;
  }
  return sent;
}

async function deliverOne(notification: PendingNotification, options: DeliveryOptions): Promise<boolean> {
  const now = options.now ?? Date.now;
  try {
    await postNotification(notification, options);
    await options.store.dropNotification(notification.id);
    return true;
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    const attempts = notification.attempts + 1;
    if (attempts >= options.maxAttempts) {
      options.onProblem?.(
        `watch ${notification.watchId}: notification dropped after ${attempts} attempts (${reason})`,
      );
      await options.store.dropNotification(notification.id);
      return false;
    }
    const wait = Math.min((options.backoffMs ?? 5000) * 2 ** (attempts - 1), 3_600_000);
    options.onProblem?.(
      `watch ${notification.watchId}: notification failed (${reason}); trying again in ${Math.round(wait / 1000)}s`,
    );
    await options.store.retryNotification(notification.id, {
      attempts,
      nextAttemptAt: now() + wait,
      error: reason,
    });
    return false;
  }
}

/** One POST: the guard first (a private address is refused unless allowed), no redirect followed. */
async function postNotification(notification: PendingNotification, options: DeliveryOptions): Promise<void> {
  await assertUrlAllowed(notification.url, { allowPrivateNetwork: options.allowPrivateNetwork });
  const headers: Record<string, string> = {
    'content-type': 'application/json',
    'user-agent': 'deepsearch-watch',
  };
  if (notification.secret) headers[signatureHeader] = signBody(notification.body, notification.secret);
  const response = await options.fetch(notification.url, {
    method: 'POST',
    headers,
    body: notification.body,
    redirect: 'manual',
    signal: AbortSignal.timeout(options.timeoutMs ?? 10_000),
  });
  await response.body?.cancel().catch(() => undefined);
  if (response.status < 200 || response.status >= 300)
    throw new Error(`the webhook answered HTTP ${response.status}`);
}
