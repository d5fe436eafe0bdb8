import { ConfigError } from '../core/errors/index.js';

/**
 * Loads one of queue mode's packages (pg, ioredis, bullmq) when queue mode starts, never on a
 * machine that does not configure it; an install that cannot load it is a config error saying what
 * to do rather than a module-resolution stack.
 */
export async function importQueuePackage<T>(name: string, load: () => Promise<T>): Promise<T> {
  try {
    return await load();
  } catch (cause) {
    throw new ConfigError(
      `queue mode needs the ${name} package, which cannot load (${String(cause)}); reinstall deepsearch`,
      { code: 'config_scale_unavailable', cause },
    );
  }
}
