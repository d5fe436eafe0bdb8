import { configOverrideErrorCode } from '../../config/derive-config.js';
import {
  isAbortError,
  isAuthenticationError,
  isBusyError,
  isConfigError,
  isInputError,
  isProviderError,
  isServiceUnavailableError,
} from '../../core/errors/index.js';
import { describeProviderFailure } from './describe-provider-failure.js';
import { isHttpError, type OpenAiErrorType } from './http-error.js';

/** OpenAI's error body, which every OpenAI client knows how to read. */
export interface OpenAiErrorBody {
  error: { message: string; type: OpenAiErrorType; param: string | null; code: string | null };
}

export interface ErrorResponse {
  status: number;
  body: OpenAiErrorBody;
  headers: Record<string, string>;
  /**
   * For the server log only: what actually failed, when the client got a generic message (a
   * provider's or the setup's failure names internal URLs and settings).
   */
  detail?: string;
}

/**
 * The one place errors become HTTP statuses. The request's fault is a 4xx with the reason; a
 * provider's failure is a 502 (the LLM, search or reader behind this server); a backing service
 * that cannot be reached (Redis, Postgres) is a 503 naming it; a configuration the server cannot
 * run with is a 500. A 502 or 500 tells the client only what kind of failure it was
 * and the request id: the detail (internal URLs, setting names, upstream text) is for the server
 * log, returned as `detail`.
 */
export function toErrorResponse(error: unknown, options: { requestId?: string } = {}): ErrorResponse {
  const reference = options.requestId ? `; request id ${options.requestId}` : '';
  const detail = error instanceof Error ? error.message : String(error);
  const respond = (
    status: number,
    type: OpenAiErrorType,
    message: string,
    code: string | null,
    param: string | null = null,
  ) => ({
    status,
    body: { error: { message, type, param, code } },
    headers: {},
  });
  if (isHttpError(error)) {
    return {
      ...respond(error.status, error.type, error.message, error.code, error.param),
      headers: error.headers,
    };
  }
  if (isBusyError(error))
    return {
      ...respond(429, 'rate_limit_error', error.message, error.code),
      headers: { 'retry-after': String(error.retryAfterSeconds) },
    };
  // A backing service away: passing, and the operator's to fix; the message names the service and
  // its setting (the URL's credentials masked), which the web page and the log show as they are.
  if (isServiceUnavailableError(error))
    return {
      ...respond(503, 'server_error', error.message, error.code),
      headers: { 'retry-after': String(error.retryAfterSeconds) },
      detail,
    };
  if (isInputError(error))
    return respond(400, 'invalid_request_error', error.message, error.code, error.param ?? null);
  if (isConfigError(error)) {
    // A request's own options are the client's fault; anything else is the server's setup.
    return error.code === configOverrideErrorCode
      ? respond(400, 'invalid_request_error', error.message, error.code)
      : {
          ...respond(
            500,
            'server_error',
            `the server's configuration cannot serve this request${reference}`,
            error.code,
          ),
          detail,
        };
  }
  if (isAuthenticationError(error)) {
    return {
      ...respond(502, 'upstream_error', `${describeProviderFailure(error)}${reference}`, error.code),
      detail,
    };
  }
  if (isProviderError(error)) {
    // A reader's account of a page the client named (read_url): its URL and the limit it hit are theirs.
    const message = error.code.startsWith('page_')
      ? error.message
      : `${describeProviderFailure(error)}${reference}`;
    return { ...respond(502, 'upstream_error', message, error.code), detail };
  }
  if (isAbortError(error)) return respond(503, 'server_error', 'the request was cancelled', 'cancelled');
  return { ...respond(500, 'server_error', `internal server error${reference}`, 'internal_error'), detail };
}
