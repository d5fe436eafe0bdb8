import { DeepSearchError, hasErrorMarker, markError } from './deepsearch-error.js';

/** The caller cancelled the run (Ctrl-C, client disconnect, signal). */
export class AbortedError extends DeepSearchError {
  constructor(message = 'the run was cancelled', options: { cause?: unknown } = {}) {
    super(message, { code: 'aborted', cause: options.cause });
    markError(this, 'AbortedError');
  }

  static override isInstance(value: unknown): value is AbortedError {
    return hasErrorMarker(value, 'AbortedError');
  }
}

/**
 * True for our AbortedError and for the DOM AbortError that fetch and the AI SDK throw on cancel.
 * A TimeoutError is not a cancellation: providers turn it into a retryable ProviderError.
 */
export function isAbortError(error: unknown): boolean {
  if (AbortedError.isInstance(error)) return true;
  return error instanceof Error && error.name === 'AbortError';
}

/** Throws AbortedError when the signal has fired; call between units of work. */
export function throwIfAborted(signal: AbortSignal | undefined): void {
  if (signal?.aborted) throw new AbortedError(undefined, { cause: signal.reason });
}
