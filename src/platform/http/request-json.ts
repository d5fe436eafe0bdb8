import type * as z from 'zod';
import {
  AbortedError,
  AuthenticationError,
  BlockedUrlError,
  createRedactor,
  isAbortError,
  isDeepSearchError,
  ProviderError,
  requestSecrets,
} from '../../core/errors/index.js';
import { anySignal } from '../../core/link-signals.js';
import { parseRetryAfter } from '../retry/with-retry.js';
import { describeNetworkError, displayUrl } from './describe-network-error.js';
import { withSafeRedirects } from './redirect-safe-fetch.js';

export interface RequestJsonOptions<T> {
  providerId: string;
  url: string;
  method?: 'GET' | 'POST';
  headers?: Record<string, string>;
  /** Serialised as JSON when an object. */
  body?: unknown;
  schema: z.ZodType<T>;
  fetch?: typeof globalThis.fetch;
  timeoutMs: number;
  signal?: AbortSignal;
  /** Names the variable to fix when the service answers 401/403. */
  keyHint?: string;
  /**
   * Whom network errors name: the provider id by default ("cannot reach searxng (host)"); a page
   * fetch passes false, since the host is what the user knows, not our reader's id.
   */
  nameProvider?: boolean;
}

/**
 * One JSON request to a provider, with a timeout and typed errors: 401/403 → AuthenticationError,
 * 408/409/429/5xx and network failures → retryable ProviderError, a body that is not the
 * documented shape → ProviderError('provider_bad_response'). Retrying is the caller's job.
 */
export async function requestJson<T>(options: RequestJsonOptions<T>): Promise<T> {
  const response = await sendRequest(options);
  const where = `${options.providerId} (${displayUrl(options.url)})`;
  if (!response.ok) await throwForStatus(response, options, where);
  let raw: unknown;
  try {
    raw = await response.json();
  } catch (cause) {
    throw new ProviderError(`${where} returned a body that is not JSON`, {
      providerId: options.providerId,
      code: 'provider_bad_response',
      statusCode: response.status,
      cause,
    });
  }
  const parsed = options.schema.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new ProviderError(
      `${where} returned an unexpected response shape (${issue?.path.join('.') || 'body'}: ${issue?.message})`,
      { providerId: options.providerId, code: 'provider_bad_response', statusCode: response.status },
    );
  }
  return parsed.data;
}

export async function sendRequest(options: Omit<RequestJsonOptions<unknown>, 'schema'>): Promise<Response> {
  // Checks the signal before sending and drops credential headers on a cross-origin redirect.
  const fetchImpl = withSafeRedirects(options.fetch ?? globalThis.fetch);
  const timeout = AbortSignal.timeout(options.timeoutMs);
  const signal = anySignal(timeout, options.signal);
  const hasBody = options.body !== undefined;
  try {
    return await fetchImpl(options.url, {
      method: options.method ?? (hasBody ? 'POST' : 'GET'),
      headers: {
        accept: 'application/json',
        ...(hasBody && typeof options.body !== 'string' ? { 'content-type': 'application/json' } : {}),
        ...options.headers,
      },
      body: hasBody
        ? typeof options.body === 'string'
          ? options.body
          : JSON.stringify(options.body)
        : undefined,
      signal,
    });
  } catch (cause) {
    throw toTransportError(cause, options, timeout);
  }
}

export function toTransportError(
  cause: unknown,
  options: Pick<RequestJsonOptions<unknown>, 'providerId' | 'url' | 'signal' | 'timeoutMs' | 'nameProvider'>,
  timeout: AbortSignal,
): Error {
  if (isDeepSearchError(cause)) return cause;
  const blocked = blockedCause(cause);
  if (blocked) return blocked;
  if (options.signal?.aborted) return new AbortedError(undefined, { cause: options.signal.reason });
  const where =
    options.nameProvider === false
      ? displayUrl(options.url)
      : `${options.providerId} (${displayUrl(options.url)})`;
  if (timeout.aborted || (cause instanceof Error && cause.name === 'TimeoutError')) {
    return new ProviderError(`${where} did not answer within ${Math.round(options.timeoutMs / 1000)}s`, {
      providerId: options.providerId,
      code: 'provider_timeout',
      isRetryable: true,
      cause,
    });
  }
  if (isAbortError(cause)) return new AbortedError(undefined, { cause });
  return new ProviderError(`cannot reach ${where}: ${describeNetworkError(cause)}`, {
    providerId: options.providerId,
    code: 'provider_unreachable',
    isRetryable: true,
    cause,
  });
}

/** A refusal by the connection-time guard arrives wrapped in fetch's "fetch failed" TypeError. */
function blockedCause(error: unknown): BlockedUrlError | undefined {
  let current: unknown = error;
  for (let depth = 0; depth < 5 && current instanceof Error; depth++) {
    if (BlockedUrlError.isInstance(current)) return current;
    current = current.cause;
  }
  return undefined;
}

export async function throwForStatus(
  response: Response,
  options: Pick<RequestJsonOptions<unknown>, 'providerId' | 'keyHint' | 'url' | 'headers'>,
  where: string,
): Promise<never> {
  // A service may echo the key it was sent (in an "invalid key: ..." message); it never goes further.
  const redact = createRedactor(requestSecrets(options.url, options.headers));
  const detail = redact(await readErrorDetail(response));
  const status = response.status;
  if (status === 401 || status === 403) {
    const hint = options.keyHint ? `: check ${options.keyHint}` : '';
    throw new AuthenticationError(`${where} rejected the request with HTTP ${status}${hint}${detail}`, {
      providerId: options.providerId,
      statusCode: status,
    });
  }
  throw new ProviderError(`${where} answered HTTP ${status}${detail}`, {
    providerId: options.providerId,
    statusCode: status,
    code: status === 429 ? 'provider_rate_limited' : 'provider_http_error',
    retryAfterMs: parseRetryAfter(response.headers.get('retry-after')),
  });
}

export type RequestTextOptions = Omit<RequestJsonOptions<unknown>, 'schema'>;

/** The text of a response: the same timeout and typed errors as requestJson, for HTML endpoints. */
export async function requestText(options: RequestTextOptions): Promise<{ status: number; text: string }> {
  const response = await sendRequest(options);
  const where = `${options.providerId} (${displayUrl(options.url)})`;
  if (!response.ok) await throwForStatus(response, options, where);
  try {
    return { status: response.status, text: await response.text() };
  } catch (cause) {
    throw new ProviderError(`${where} broke off its answer`, {
      providerId: options.providerId,
      code: 'provider_unreachable',
      isRetryable: true,
      cause,
    });
  }
}

/** A short excerpt of the error body: enough to diagnose, never a whole HTML page. */
export async function readErrorDetail(response: Response): Promise<string> {
  let text = '';
  try {
    text = await response.text();
  } catch {
    return '';
  }
  try {
    const json = JSON.parse(text) as { error?: unknown; message?: unknown; detail?: unknown };
    const error = json.error as { message?: unknown } | string | undefined;
    const message =
      (typeof error === 'object' && error ? error.message : error) ??
      json.message ??
      json.detail ??
      undefined;
    if (typeof message === 'string' && message.trim()) return `: ${message.trim().slice(0, 200)}`;
  } catch {
    // not JSON; fall through to the plain-text excerpt
  }
  const plain = text
    .replace(/<[^>]+>/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
  return plain ? `: ${plain.slice(0, 160)}` : '';
}
