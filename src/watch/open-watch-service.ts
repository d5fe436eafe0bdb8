import type { DeepSearchConfig } from '../config/config-schema.js';
import { resolveProxySettings } from '../config/proxy-settings.js';
import { createOutboundFetch } from '../platform/http/outbound-fetch.js';
import type { RunBackend } from '../scale/run-backend.js';
import type { CompareOptions } from './claims/claim-types.js';
import type { WatchStore } from './store/watch-store.js';
import { createWatchService, type WatchService } from './watch-service.js';

export interface OpenWatchServiceOptions {
  config: DeepSearchConfig;
  store: WatchStore;
  /** Where the checks' runs go: the server's (or the CLI's) run backend, local or queue mode. */
  backend: Pick<RunBackend, 'store' | 'queue' | 'isInterrupted' | 'outlivesProcess'>;
  /** The server's address, once known, for the run URL in notifications. */
  baseUrl: () => string | undefined;
  compare?: CompareOptions;
  onProblem?: (message: string) => void;
  /** Names of the schedule and webhook fields where the input comes from (the CLI's flags). */
  names?: { every: string; cron: string; notify: string };
}

/**
 * The watch service composed from the config: webhooks posted through the one outbound fetch
 * (proxy and network guard: a private address only with reader.allowPrivateNetwork), the
 * schedule's floor and the retries from the watch section.
 */
export function openWatchService(options: OpenWatchServiceOptions): WatchService {
  const { config } = options;
  const allowPrivateNetwork = config.reader.allowPrivateNetwork;
  const fetch = createOutboundFetch({ proxy: resolveProxySettings(config), guard: { allowPrivateNetwork } });
  return createWatchService({
    deps: {
      store: options.store,
      backend: options.backend,
      config,
      compare: options.compare,
      runUrl: (runId) => {
        const base = options.baseUrl();
        return base ? `${base}/v1/runs/${runId}` : null;
      },
      delivery: {
        fetch,
        allowPrivateNetwork,
        maxAttempts: config.watch.notifyAttempts,
        onProblem: options.onProblem,
      },
    },
    input: { minIntervalMs: config.watch.minIntervalMs, allowPrivateNetwork, names: options.names },
  });
}
