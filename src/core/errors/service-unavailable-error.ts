import { DeepSearchError, hasErrorMarker, markError } from './deepsearch-error.js';

/** A backing service of a deployment: the run queue (Redis) or the run store (Postgres). */
export interface BackingService {
  /** Short and stable, for logs and metrics: `redis`, `postgres`. */
  id: string;
  /**
   * The service in words, with its address (credentials masked) and the setting that names it:
   * `the run queue (Redis at redis://***@host:6379, set by DEEPSEARCH_REDIS_URL)`.
   */
  label: string;
}

/**
 * A backing service cannot be reached: nobody's fault but the deployment's, and passing (retry
 * after `retryAfterSeconds`). The API answers 503 with Retry-After, the CLI exits "unavailable";
 * the message names the service and its setting, never a secret or the driver's text.
 */
export class ServiceUnavailableError extends DeepSearchError {
  declare readonly code: 'service_unavailable';
  readonly service: BackingService;
  readonly retryAfterSeconds: number;

  constructor(input: { service: BackingService; cause?: unknown; retryAfterSeconds?: number }) {
    super(`${input.service.label} can't be reached`, { code: 'service_unavailable', cause: input.cause });
    markError(this, 'ServiceUnavailableError');
    this.service = input.service;
    this.retryAfterSeconds = input.retryAfterSeconds ?? 5;
  }

  static override isInstance(value: unknown): value is ServiceUnavailableError {
    return hasErrorMarker(value, 'ServiceUnavailableError');
  }
}

export function isServiceUnavailableError(error: unknown): error is ServiceUnavailableError {
  return ServiceUnavailableError.isInstance(error);
}
