import { isAbortError, isDeepSearchError } from '../core/errors/index.js';

/**
 * A failed tool call as the user of a local MCP server (stdio) reads it: our errors say what to fix
 * (a missing key, a refused URL, a failed service) as the CLI does; anything else is an unexpected
 * failure with its message and no stack.
 */
export function describeToolError(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  if (isAbortError(error)) return 'the call was cancelled';
  return isDeepSearchError(error) ? message : `unexpected failure: ${message}`;
}
