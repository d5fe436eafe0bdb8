import { configOverrideErrorCode } from '../config/derive-config.js';
import {
  isAbortError,
  isAuthenticationError,
  isConfigError,
  isInputError,
  isProviderError,
} from '../errors/index.js';
import { isHttpError, type OpenAiErrorType } from './http-error.js';

/** OpenAI's error body, which every OpenAI client knows how to read. */
export interface OpenAiErrorBody {
  error: { message: string; type: OpenAiErrorType; param: string | null; code: string | null };
}

export interface ErrorResponse {
  status: number;
  body: OpenAiErrorBody;
  headers: Record<string, string>;
}

/**
 * The one place errors become HTTP statuses. The request's fault is a 4xx with the reason; a
 * provider's failure is a 502 (the LLM, search or reader behind this server); a configuration the
 * server cannot run with is a 500 naming the setting (never a value); anything else is a 500 whose
 * message says nothing about internals.
 */
export function toErrorResponse(error: unknown): ErrorResponse {
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
  if (isInputError(error))
    return respond(400, 'invalid_request_error', error.message, error.code, error.param ?? null);
  if (isConfigError(error)) {
    // A request's own options are the client's fault; anything else is the server's setup.
    return error.code === configOverrideErrorCode
      ? respond(400, 'invalid_request_error', error.message, error.code)
      : respond(500, 'server_error', `server configuration: ${error.message}`, error.code);
  }
  if (isAuthenticationError(error)) {
    return respond(
      502,
      'upstream_error',
      `${error.providerId} refused this server's credentials`,
      error.code,
    );
  }
  if (isProviderError(error)) return respond(502, 'upstream_error', error.message, error.code);
  if (isAbortError(error)) return respond(503, 'server_error', 'the request was cancelled', 'cancelled');
  return respond(500, 'server_error', 'internal server error', 'internal_error');
}
