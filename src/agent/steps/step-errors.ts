import {
  isAbortError,
  isAuthenticationError,
  isConfigError,
  isStructuredOutputError,
} from '../../core/errors/index.js';

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

const stoppingErrors = new WeakSet<object>();

/**
 * Marks an error that must end the run although a step would normally move past it (every
 * search failed and nothing was read: there is nothing to answer from, and the person must fix
 * the provider). The error itself is rethrown so callers still see its type and status.
 */
export function stopRunWith(error: unknown): unknown {
  if (typeof error === 'object' && error !== null) stoppingErrors.add(error);
  return error;
}

/**
 * The one sorting of an error out of a step: `fatal` ends the run (cancelled, a rejected key, a
 * configuration to fix); `deadline` goes on to the final answer (regular steps ran out of time
 * mid-call); anything else is a failed step, which the loop notes and moves past.
 */
export function classifyStepError(
  error: unknown,
  signals: { cancel: AbortSignal | undefined; regular: AbortSignal },
): 'fatal' | 'deadline' | 'failed-step' {
  if (signals.cancel?.aborted) return 'fatal';
  if (typeof error === 'object' && error !== null && stoppingErrors.has(error)) return 'fatal';
  if (isAuthenticationError(error) || isConfigError(error)) return 'fatal';
  if (isAbortError(error) && signals.regular.aborted) return 'deadline';
  return 'failed-step';
}

/** A warning about a call whose result the run goes on without, in a person's words. */
export interface DoneWithoutWarning {
  message: string;
  /** The validator's or provider's own words, for --debug and the run's record. */
  detail?: string;
}

/**
 * What failed and what the run does instead, for the person following it: a reply that did not
 * fit its shape "could not be used" (the validator's field paths go to `detail`, not the line a
 * person reads); any other failure is named by its own message, which already says which service.
 */
export function doneWithout(input: { what: string; instead: string; error: unknown }): DoneWithoutWarning {
  const { what, instead, error } = input;
  if (isStructuredOutputError(error)) {
    return {
      message: `${what}: the model's reply could not be used; ${instead}`,
      detail: error.validationMessage,
    };
  }
  return { message: `${what} failed (${errorMessage(error)}); ${instead}` };
}

/** An address in an error's text, with the word that introduces it ("at http://…"). */
const serviceAddress =
  /(?:\s+(?:at|from|on|to|via))?\s*(?:https?:\/\/[^\s"'<>]*[^\s"'<>.,:;)]|\b(?:localhost|\d{1,3}(?:\.\d{1,3}){3}|\[[0-9a-f:]+\]):\d{1,5}\b)/gi;

/**
 * A failure as the model reads it in its diary: without the addresses of the services behind the
 * run (the LLM, search, reader or embedding server: an obedient model would try to visit them)
 * and short. The page a failed read was about is named by the caller, outside the error's text.
 * Keys never get this far: providers redact them where their errors are made.
 */
export function failureForModel(error: unknown): string {
  const text = errorMessage(error).replace(serviceAddress, '').replace(/\s+/g, ' ').trim();
  return text.length > 200 ? `${text.slice(0, 199)}…` : text;
}
