import type { Context } from 'hono';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import { isAbortError } from '../../core/errors/index.js';
import type { ServerEnv } from '../server-env.js';
import { clientClosedStatus } from './http-error.js';
import { type ErrorResponse, toErrorResponse } from './openai-error.js';

/**
 * An error of this request as the response to send, with the access log record filled in: the
 * error code, the outcome, and the detail the client does not see (redacted when the line is
 * written). A run cancelled because the client hung up is the client's doing: 499 in the log, not
 * a 5xx. Routes and the stream writer use it, so every route reports errors the same way.
 */
export function toServerErrorResponse(error: unknown, c: Context<ServerEnv>): ErrorResponse {
  const record = c.var.record;
  const clientGone = c.req.raw.signal.aborted && isAbortError(error);
  const response: ErrorResponse = clientGone
    ? {
        status: clientClosedStatus,
        body: {
          error: {
            message: 'the client closed the connection',
            type: 'invalid_request_error',
            param: null,
            code: 'client_closed_request',
          },
        },
        headers: {},
      }
    : toErrorResponse(error, { requestId: c.var.requestId });
  const code = response.body.error.code;
  record.errorCode = code ?? undefined;
  if (code === 'cancelled' || code === 'client_closed_request') record.outcome = 'cancelled';
  if (response.detail) record.error = response.detail;
  return response;
}

/**
 * The error sent as OpenAI's JSON error body with its status and headers: the app's onError, its
 * 404 and its 405 all answer through here.
 */
export function sendServerError(error: unknown, c: Context<ServerEnv>): Response {
  const response = toServerErrorResponse(error, c);
  return c.json(response.body, response.status as ContentfulStatusCode, response.headers);
}
