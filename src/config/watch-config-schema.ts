import * as z from 'zod';
import { setting } from './setting.js';

/** Watches (`deepsearch watch`, /v1/watches): how often they may run, when they are looked at, notify retries. */
export const watchConfigSchema = z
  .object({
    minIntervalMs: setting(z.number().int().min(1).default(60_000), {
      env: 'DEEPSEARCH_WATCH_MIN_INTERVAL_MS',
      description:
        'the shortest schedule a watch may have, in milliseconds (a minute; lower it only in tests)',
    }),
    checkIntervalMs: setting(z.number().int().min(10).default(15_000), {
      env: 'DEEPSEARCH_WATCH_CHECK_MS',
      description:
        'how often `deepsearch serve` looks for due watches and notifications to retry, in milliseconds',
    }),
    notifyAttempts: setting(z.number().int().min(1).max(50).default(8), {
      env: 'DEEPSEARCH_WATCH_NOTIFY_ATTEMPTS',
      description: "times a watch's webhook is tried (with backoff) before the notification is dropped",
    }),
  })
  .strict();
