import {
  DeepSearchError,
  type DeepSearchErrorOptions,
  hasErrorMarker,
  markError,
} from './deepsearch-error.js';

/** The configuration is invalid or incomplete; the message names what to set. */
export class ConfigError extends DeepSearchError {
  constructor(message: string, options: Partial<DeepSearchErrorOptions> = {}) {
    super(message, { code: options.code ?? 'config_invalid', cause: options.cause });
    markError(this, 'ConfigError');
  }

  static override isInstance(value: unknown): value is ConfigError {
    return hasErrorMarker(value, 'ConfigError');
  }
}

/** The request itself is unusable (no question, malformed option). */
export class InputError extends DeepSearchError {
  readonly param: string | undefined;

  constructor(message: string, options: Partial<DeepSearchErrorOptions> & { param?: string } = {}) {
    super(message, { code: options.code ?? 'invalid_input', cause: options.cause });
    markError(this, 'InputError');
    this.param = options.param;
  }

  static override isInstance(value: unknown): value is InputError {
    return hasErrorMarker(value, 'InputError');
  }
}

/** A URL was refused before any connection was made (private network, bad scheme). */
export class BlockedUrlError extends DeepSearchError {
  readonly url: string;

  constructor(message: string, options: { url: string; cause?: unknown }) {
    super(message, { code: 'url_blocked', cause: options.cause });
    markError(this, 'BlockedUrlError');
    this.url = options.url;
  }

  static override isInstance(value: unknown): value is BlockedUrlError {
    return hasErrorMarker(value, 'BlockedUrlError');
  }
}

export function isConfigError(error: unknown): error is ConfigError {
  return ConfigError.isInstance(error);
}

export function isInputError(error: unknown): error is InputError {
  return InputError.isInstance(error);
}

export function isBlockedUrlError(error: unknown): error is BlockedUrlError {
  return BlockedUrlError.isInstance(error);
}

/**
 * A request refused because the service is at capacity (`server_busy`) or the caller is at its
 * share (`owner_busy`): the API answers 429 with Retry-After.
 */
export class BusyError extends DeepSearchError {
  declare readonly code: 'server_busy' | 'owner_busy';
  readonly retryAfterSeconds: number;

  constructor(input: { code: 'server_busy' | 'owner_busy'; message: string; retryAfterSeconds: number }) {
    super(input.message, { code: input.code });
    markError(this, 'BusyError');
    this.retryAfterSeconds = input.retryAfterSeconds;
  }

  static override isInstance(value: unknown): value is BusyError {
    return hasErrorMarker(value, 'BusyError');
  }
}

export function isBusyError(error: unknown): error is BusyError {
  return BusyError.isInstance(error);
}
