/**
 * The one base error. Subclasses say who is at fault: the user (config, input), a provider
 * (HTTP service, model output), or the caller (abort). Entry points translate them to exit codes
 * and HTTP statuses; nothing below the entry points prints or exits.
 */
export interface DeepSearchErrorOptions {
  code: string;
  cause?: unknown;
}

export class DeepSearchError extends Error {
  readonly code: string;

  constructor(message: string, options: DeepSearchErrorOptions) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = new.target.name;
    this.code = options.code;
  }
}

export function isDeepSearchError(error: unknown): error is DeepSearchError {
  return error instanceof DeepSearchError;
}
