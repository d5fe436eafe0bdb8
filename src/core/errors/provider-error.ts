import { DeepSearchError, hasErrorMarker, markError } from './deepsearch-error.js';
import type { ErrorCode } from './error-codes.js';

export interface ProviderErrorOptions {
  code?: ErrorCode;
  cause?: unknown;
  providerId: string;
  statusCode?: number;
  isRetryable?: boolean;
  /** Server-requested delay (Retry-After), when it sent one. */
  retryAfterMs?: number;
}

/** Marks a 400 caused by the server not supporting JSON-schema response formats. */
export const structuredOutputUnsupportedCode = 'llm_structured_output_unsupported';

const retryableStatuses = new Set([408, 409, 429]);

export function isRetryableStatus(statusCode: number): boolean {
  return retryableStatuses.has(statusCode) || statusCode >= 500;
}

/** A call to an outside service (LLM, search, reader, embeddings) failed. */
export class ProviderError extends DeepSearchError {
  readonly providerId: string;
  readonly statusCode: number | undefined;
  readonly isRetryable: boolean;
  readonly retryAfterMs: number | undefined;

  constructor(message: string, options: ProviderErrorOptions) {
    super(message, { code: options.code ?? 'provider_error', cause: options.cause });
    markError(this, 'ProviderError');
    this.providerId = options.providerId;
    this.statusCode = options.statusCode;
    this.isRetryable =
      options.isRetryable ??
      (options.statusCode === undefined ? false : isRetryableStatus(options.statusCode));
    this.retryAfterMs = options.retryAfterMs;
  }

  static override isInstance(value: unknown): value is ProviderError {
    return hasErrorMarker(value, 'ProviderError');
  }
}

/** 401/403: the key is missing, wrong or lacks access. Never retried, never swallowed. */
export class AuthenticationError extends ProviderError {
  constructor(message: string, options: Omit<ProviderErrorOptions, 'isRetryable'>) {
    super(message, { ...options, code: options.code ?? 'provider_auth', isRetryable: false });
    markError(this, 'AuthenticationError');
  }

  static override isInstance(value: unknown): value is AuthenticationError {
    return hasErrorMarker(value, 'AuthenticationError');
  }
}

/** The model answered, but not with an object that matches the schema, even after a re-ask. */
export class StructuredOutputError extends ProviderError {
  readonly text: string;
  readonly validationMessage: string;

  constructor(
    message: string,
    options: { providerId: string; text: string; validationMessage: string; cause?: unknown },
  ) {
    super(message, {
      providerId: options.providerId,
      code: 'llm_invalid_output',
      cause: options.cause,
      isRetryable: false,
    });
    markError(this, 'StructuredOutputError');
    this.text = options.text;
    this.validationMessage = options.validationMessage;
  }

  static override isInstance(value: unknown): value is StructuredOutputError {
    return hasErrorMarker(value, 'StructuredOutputError');
  }
}

export function isProviderError(error: unknown): error is ProviderError {
  return ProviderError.isInstance(error);
}

export function isAuthenticationError(error: unknown): error is AuthenticationError {
  return AuthenticationError.isInstance(error);
}

export function isStructuredOutputError(error: unknown): error is StructuredOutputError {
  return StructuredOutputError.isInstance(error);
}
