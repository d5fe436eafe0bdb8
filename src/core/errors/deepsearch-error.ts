import type { ErrorCode } from './error-codes.js';

/**
 * The one base error. Subclasses say who is at fault: the user (config, input), a provider
 * (HTTP service, model output), or the caller (abort). Entry points translate them to exit codes
 * and HTTP statuses; nothing below the entry points prints or exits.
 */
export interface DeepSearchErrorOptions {
  code: ErrorCode;
  cause?: unknown;
}

const markerPrefix = 'deepsearch.error';

/**
 * Errors are told apart by a marker, as the AI SDK's are (`Symbol.for('vercel.ai.error')`), not by
 * `instanceof`: two copies of this package in one process (a bundled CLI next to the library, a
 * dependency's own copy) make two classes of each name, and `instanceof` would fail across them.
 * `Symbol.for` gives one symbol per key in the whole process. The class name is written out, not
 * read from the constructor, which a bundler may rename.
 */
export function markError(error: Error, className: string): void {
  Object.defineProperty(error, Symbol.for(`${markerPrefix}.${className}`), { value: true });
}

/** True when `value` carries the marker of the class named `className` (or of a subclass of it). */
export function hasErrorMarker(value: unknown, className: string): boolean {
  if (typeof value !== 'object' || value === null) return false;
  return (value as Record<symbol, unknown>)[Symbol.for(`${markerPrefix}.${className}`)] === true;
}

export class DeepSearchError extends Error {
  readonly code: ErrorCode;

  constructor(message: string, options: DeepSearchErrorOptions) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = new.target.name;
    this.code = options.code;
    markError(this, 'DeepSearchError');
  }

  /** Any of our errors, from whichever copy of the package made it. */
  static isInstance(value: unknown): value is DeepSearchError {
    return hasErrorMarker(value, 'DeepSearchError');
  }
}

export function isDeepSearchError(error: unknown): error is DeepSearchError {
  return DeepSearchError.isInstance(error);
}
