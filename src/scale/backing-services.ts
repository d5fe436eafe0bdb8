import { maskProxyUrl } from '../config/proxy-settings.js';
import { type BackingService, isDeepSearchError, ServiceUnavailableError } from '../core/errors/index.js';

/** The run queue, as its errors, logs and /ready name it. */
export function redisService(url: string): BackingService {
  return { id: 'redis', label: `the run queue (Redis at ${maskProxyUrl(url)}, set by DEEPSEARCH_REDIS_URL)` };
}

/** The run store of queue mode, as its errors, logs and /ready name it. */
export function postgresService(url: string): BackingService {
  return {
    id: 'postgres',
    label: `the run store (Postgres at ${maskProxyUrl(url)}, set by DEEPSEARCH_DATABASE_URL)`,
  };
}

/** The run store of one machine (SQLite), as /ready and the run API name it when it cannot open. */
export function sqliteRunStore(file: string): BackingService {
  return { id: 'sqlite', label: `the run store (SQLite at ${file}, set by DEEPSEARCH_RUNS_FILE)` };
}

const connectionCodes = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  'ENETUNREACH',
  // Postgres: shutting down, starting, and the connection exceptions (class 08).
  '57P01',
  '57P02',
  '57P03',
]);
const connectionMessages =
  /max retries per request|connection is closed|stream isn't writeable|connection terminated|timeout exceeded when trying to connect|client has encountered a connection error|the database system is (starting up|shutting down)|ECONNREFUSED|ECONNRESET|ETIMEDOUT/i;

/**
 * Whether an error of a driver (ioredis, pg, BullMQ over ioredis) says the service could not be
 * reached, as opposed to refusing a command: the cause chain is walked (a driver wraps).
 */
export function isConnectionFailure(error: unknown): boolean {
  let current: unknown = error;
  for (let depth = 0; depth < 5 && current instanceof Error; depth++) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === 'string' && (connectionCodes.has(code) || code.startsWith('08'))) return true;
    if (current.name === 'MaxRetriesPerRequestError' || connectionMessages.test(current.message)) return true;
    current = current.cause;
  }
  return false;
}

/**
 * The error as callers should see it: a driver's connection failure becomes a
 * ServiceUnavailableError naming the service; our own errors (one already naming its service
 * included) and a refused command pass as they are.
 */
export function asServiceFailure(error: unknown, service: BackingService): unknown {
  if (isDeepSearchError(error) || !isConnectionFailure(error)) return error;
  return new ServiceUnavailableError({ service, cause: error });
}

/**
 * The object with every method that returns a promise rejecting with asServiceFailure's error,
 * and `onFailure` told of each such failure (the service monitor marks the service down).
 */
export function guardService<T extends object>(
  target: T,
  service: BackingService,
  onFailure?: (error: ServiceUnavailableError) => void,
): T {
  return convertRejections(target, (error) => {
    const converted = asServiceFailure(error, service);
    if (ServiceUnavailableError.isInstance(converted)) onFailure?.(converted);
    return converted;
  });
}

/**
 * A store whose failures to open (`config_runs_unavailable`: the file cannot be created or read,
 * the SQLite module cannot load) are the run store being unavailable, naming it: the API answers
 * 503 with its name and setting rather than a 500 that hides why.
 */
export function guardRunStore<T extends object>(target: T, file: string): T {
  return convertRejections(target, (error) =>
    isDeepSearchError(error) && error.code === 'config_runs_unavailable'
      ? new ServiceUnavailableError({ service: sqliteRunStore(file), cause: error })
      : error,
  );
}

/** The object with every method that returns a promise rejecting with `convert`'s error instead. */
function convertRejections<T extends object>(target: T, convert: (error: unknown) => unknown): T {
  return new Proxy(target, {
    get(object, key, receiver) {
      const value = Reflect.get(object, key, receiver);
      if (typeof value !== 'function') return value;
      return (...args: unknown[]) => {
        const result = (value as (...a: unknown[]) => unknown).apply(object, args);
        return result instanceof Promise
          ? result.catch((error: unknown) => {
              throw convert(error);
            })
          : result;
      };
    },
  });
}
