import {
  AbortedError,
  AuthenticationError,
  asErrorCode,
  BlockedUrlError,
  BusyError,
  ConfigError,
  DeepSearchError,
  hasErrorMarker,
  InputError,
  ProviderError,
  ServiceUnavailableError,
  StructuredOutputError,
} from '../../core/errors/index.js';

/**
 * An error as it crosses from a run thread to the server's thread: plain data (a structured clone
 * keeps neither an error's class nor its own fields), made back into the same class with the same
 * fields, so the server answers it as it would a run of its own (status, code, param, the
 * provider's name and the network code of its cause).
 */
export interface ThreadError {
  /** The most specific of our classes the error is, or `Error`. */
  kind: (typeof kinds)[number] | 'Error';
  name: string;
  message: string;
  /** The error's own fields (code, param, providerId, statusCode...). */
  fields: Record<string, unknown>;
  cause?: ThreadError;
}

/** Most specific first. */
const kinds = [
  'AbortedError',
  'AuthenticationError',
  'StructuredOutputError',
  'ProviderError',
  'ServiceUnavailableError',
  'BusyError',
  'BlockedUrlError',
  'InputError',
  'ConfigError',
  'DeepSearchError',
] as const;

/** Fields that are plain data on our errors and on system errors (errno codes in a fetch's causes). */
const fieldNames = [
  'code',
  'param',
  'providerId',
  'statusCode',
  'isRetryable',
  'retryAfterMs',
  'retryAfterSeconds',
  'url',
  'service',
  'text',
  'validationMessage',
  'errno',
  'syscall',
] as const;

export function toThreadError(error: unknown, depth = 0): ThreadError {
  if (!(error instanceof Error) && !(typeof error === 'object' && error !== null && 'message' in error))
    return { kind: 'Error', name: 'Error', message: String(error), fields: {} };
  const source = error as Error & Record<string, unknown>;
  const fields: Record<string, unknown> = {};
  for (const field of fieldNames) {
    const value = source[field];
    if (value !== undefined && (typeof value !== 'object' || field === 'service'))
      fields[field] = field === 'service' ? { ...(value as object) } : value;
  }
  const cause = depth < 5 && source.cause !== undefined ? toThreadError(source.cause, depth + 1) : undefined;
  return {
    kind: kinds.find((kind) => hasErrorMarker(error, kind)) ?? 'Error',
    name: String(source.name ?? 'Error'),
    message: String(source.message ?? ''),
    fields,
    ...(cause ? { cause } : {}),
  };
}

export function fromThreadError(thread: ThreadError): Error {
  const cause = thread.cause ? fromThreadError(thread.cause) : undefined;
  const error = create(thread, cause);
  // The fields the constructor did not set (a cause's errno code, a provider's retry delay).
  for (const [field, value] of Object.entries(thread.fields))
    if ((error as unknown as Record<string, unknown>)[field] !== value)
      Object.defineProperty(error, field, { value, enumerable: true, configurable: true });
  if (error.name !== thread.name) error.name = thread.name;
  return error;
}

function create(thread: ThreadError, cause: Error | undefined): Error {
  const { message, fields } = thread;
  const code = asErrorCode(String(fields.code ?? 'run_failed'));
  const provider = {
    code,
    cause,
    providerId: String(fields.providerId ?? 'unknown'),
    statusCode: fields.statusCode as number | undefined,
    retryAfterMs: fields.retryAfterMs as number | undefined,
  };
  switch (thread.kind) {
    case 'AbortedError':
      return new AbortedError(message, { cause });
    case 'AuthenticationError':
      return new AuthenticationError(message, provider);
    case 'StructuredOutputError':
      return new StructuredOutputError(message, {
        providerId: provider.providerId,
        text: String(fields.text ?? ''),
        validationMessage: String(fields.validationMessage ?? ''),
        cause,
      });
    case 'ProviderError':
      return new ProviderError(message, { ...provider, isRetryable: fields.isRetryable as boolean });
    case 'ServiceUnavailableError': {
      const error = new ServiceUnavailableError({
        service: fields.service as { id: string; label: string },
        cause,
        retryAfterSeconds: fields.retryAfterSeconds as number | undefined,
      });
      error.message = message;
      return error;
    }
    case 'BusyError':
      return new BusyError({
        code: code as 'server_busy' | 'owner_busy',
        message,
        retryAfterSeconds: Number(fields.retryAfterSeconds ?? 1),
      });
    case 'BlockedUrlError':
      return new BlockedUrlError(message, { url: String(fields.url ?? ''), cause });
    case 'InputError':
      return new InputError(message, { code, cause, param: fields.param as string | undefined });
    case 'ConfigError':
      return new ConfigError(message, { code, cause });
    case 'DeepSearchError':
      return new DeepSearchError(message, { code, cause });
    default:
      return new Error(message, cause ? { cause } : undefined);
  }
}
