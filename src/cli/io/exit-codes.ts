import {
  isAbortError,
  isBlockedUrlError,
  isConfigError,
  isDeepSearchError,
  isInputError,
  isProviderError,
  isServiceUnavailableError,
} from '../../core/errors/index.js';

export const exitCodes = {
  ok: 0,
  internal: 1,
  /** Bad input or configuration: the user can fix it. */
  usage: 2,
  /** An outside service failed or refused (LLM, search, reader). */
  provider: 3,
  /** A backing service (Redis, Postgres) cannot be reached: try again later (sysexits' EX_UNAVAILABLE). */
  unavailable: 69,
  /** Interrupted (Ctrl-C). */
  cancelled: 130,
} as const;

/** Queue mode's services not reached when a command starts (a ConfigError, as it names the setting). */
const serviceUnreachableAtStart = new Set(['config_redis_unavailable', 'config_database_unavailable']);

export function exitCodeFor(error: unknown): number {
  if (isAbortError(error)) return exitCodes.cancelled;
  if (
    isServiceUnavailableError(error) ||
    serviceUnreachableAtStart.has((error as { code?: string })?.code ?? '')
  )
    return exitCodes.unavailable;
  if (isConfigError(error) || isInputError(error) || isBlockedUrlError(error)) return exitCodes.usage;
  if (isProviderError(error)) return exitCodes.provider;
  return exitCodes.internal;
}

/**
 * One line for stderr; with --debug, the stack and the chain of causes too. Never prints a
 * request body or headers, so keys cannot leak.
 */
export function formatCliError(error: unknown, debug: boolean): string {
  const message = error instanceof Error ? error.message : String(error);
  const known = isDeepSearchError(error) || isAbortError(error);
  const line = `deepsearch: error: ${known ? message : `unexpected failure: ${message}`}`;
  if (!debug) return known ? line : `${line} (run with --debug for details)`;
  const details: string[] = [line];
  let current: unknown = error;
  for (let depth = 0; depth < 6 && current instanceof Error; depth++) {
    details.push(current.stack ?? `${current.name}: ${current.message}`);
    current = current.cause;
    if (current instanceof Error) details.push('caused by:');
  }
  return details.join('\n');
}

/**
 * A command failure the command has already reported (one line per failed input of `read`):
 * the CLI exits with the code of the first failure and prints nothing more, so no error shows twice.
 */
export class ReportedFailure extends Error {
  readonly failure: unknown;

  constructor(failure: unknown) {
    super(failure instanceof Error ? failure.message : String(failure), { cause: failure });
    this.name = 'ReportedFailure';
    this.failure = failure;
  }
}
