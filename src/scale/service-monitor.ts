import { type BackingService, ServiceUnavailableError } from '../core/errors/index.js';

export interface ServiceProbe {
  service: BackingService;
  /** Resolves when the service answers (PING, SELECT 1). */
  probe(): Promise<unknown>;
}

export interface ServiceChange {
  service: BackingService;
  state: 'down' | 'up';
  /** Down: the failure in words (no secret: the label masks the URL's credentials). */
  message: string;
}

export interface ServiceMonitor {
  /**
   * Probes every service (at most once a second; callers at once share one probe) and returns
   * the first that cannot be reached, as the error to answer with, or undefined when all answer.
   */
  check(): Promise<ServiceUnavailableError | undefined>;
  /** A call failed to reach the service: it is down until a probe says otherwise. */
  markDown(error: ServiceUnavailableError): void;
  /** Services down now, by id. */
  down(): BackingService[];
  stop(): void;
}

/**
 * The state of a process's backing services: probed every `intervalMs` in the background (so a
 * worker, which serves no /ready, still notices and logs a change) and on demand by /ready; each
 * change (down, up again) is reported once to `onChange`.
 */
export function createServiceMonitor(options: {
  probes: readonly ServiceProbe[];
  onChange: (change: ServiceChange) => void;
  intervalMs?: number;
  timeoutMs?: number;
  now?: () => number;
}): ServiceMonitor {
  const now = options.now ?? Date.now;
  const timeoutMs = options.timeoutMs ?? 2000;
  const downIds = new Map<string, BackingService>();
  let last: { at: number; result: ServiceUnavailableError | undefined } | undefined;
  let running: Promise<ServiceUnavailableError | undefined> | undefined;

  const setState = (service: BackingService, isDown: boolean) => {
    if (downIds.has(service.id) === isDown) return;
    if (isDown) downIds.set(service.id, service);
    else downIds.delete(service.id);
    const message = isDown ? `${service.label} can't be reached` : `${service.label} is reachable again`;
    options.onChange({ service, state: isDown ? 'down' : 'up', message });
  };
  const probeOne = async ({ service, probe }: ServiceProbe) => {
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error('no answer in time')), timeoutMs);
    });
    try {
      await Promise.race([probe(), timeout]);
      setState(service, false);
      return undefined;
    } catch (cause) {
      setState(service, true);
      return new ServiceUnavailableError({ service, cause });
    } finally {
      clearTimeout(timer);
    }
  };
  const probeAll = async () => {
    const results = await Promise.all(options.probes.map(probeOne));
    const result = results.find((error) => error !== undefined);
    last = { at: now(), result };
    return result;
  };
  const check = () => {
    if (last && now() - last.at < 1000) return Promise.resolve(last.result);
    running ??= probeAll().finally(() => {
      running = undefined;
    });
    return running;
  };
  const timer = setInterval(() => void check(), options.intervalMs ?? 5000);
  timer.unref();
  return {
    check,
    markDown(error) {
      setState(error.service, true);
      // /ready must not answer from a probe older than this failure.
      last = undefined;
    },
    down: () => [...downIds.values()],
    stop: () => clearInterval(timer),
  };
}
