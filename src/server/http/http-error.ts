import { DeepSearchError, type ErrorCode, hasErrorMarker, markError } from '../../core/errors/index.js';

/** Status logged for a client that went away before its request was read or answered (nginx's convention). */
export const clientClosedStatus = 499;

export type OpenAiErrorType =
  | 'invalid_request_error'
  | 'authentication_error'
  | 'not_found_error'
  | 'rate_limit_error'
  | 'upstream_error'
  | 'server_error';

/** A refusal decided by the server itself (auth, unknown model, size, load), with its status. */
export class HttpError extends DeepSearchError {
  readonly status: number;
  readonly type: OpenAiErrorType;
  readonly param: string | null;
  readonly headers: Record<string, string>;

  constructor(
    message: string,
    options: {
      status: number;
      type: OpenAiErrorType;
      code: ErrorCode;
      param?: string;
      headers?: Record<string, string>;
    },
  ) {
    super(message, { code: options.code });
    markError(this, 'HttpError');
    this.status = options.status;
    this.type = options.type;
    this.param = options.param ?? null;
    this.headers = options.headers ?? {};
  }

  static override isInstance(value: unknown): value is HttpError {
    return hasErrorMarker(value, 'HttpError');
  }
}

export function isHttpError(error: unknown): error is HttpError {
  return HttpError.isInstance(error);
}
