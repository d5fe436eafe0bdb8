import { isAbortError, isAuthenticationError, isConfigError } from '../../errors/index.js';

/**
 * Errors that must end the run rather than be noted in the diary: cancellation, a rejected key,
 * a configuration the user has to fix. Everything else a step records and moves past.
 */
export function isFatal(error: unknown): boolean {
  return isAbortError(error) || isAuthenticationError(error) || isConfigError(error);
}

export function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
