/** A value that survives JSON.stringify/JSON.parse unchanged. */
export type JsonValue = null | boolean | number | string | JsonValue[] | { [key: string]: JsonValue };

export interface CodeRunRequest {
  /**
   * The body of an async function: the result is what it `return`s (a Promise is awaited). The
   * data arrives as the global `input` (and the function's parameter of the same name).
   */
  code: string;
  /** Any JSON-serialisable value; the code gets a deep copy, never a host object. */
  input?: unknown;
  signal?: AbortSignal;
}

/** Why a run failed; every limit has its own kind so callers can say what to change. */
export const codeRunErrorKinds = [
  'timeout',
  'memory',
  'output-too-large',
  'syntax',
  'runtime',
  'aborted',
] as const;
export type CodeRunErrorKind = (typeof codeRunErrorKinds)[number];

export interface CodeRunError {
  kind: CodeRunErrorKind;
  /** One line a model (or a person) can act on; never a host stack trace. */
  message: string;
}

export type CodeRunResult =
  | {
      ok: true;
      /** What the code returned: JSON data, or text when it returned a string. */
      output: JsonValue;
      /** console.log lines, bounded in total size. */
      logs: string[];
      ms: number;
    }
  | { ok: false; error: CodeRunError; logs: string[]; ms: number };
