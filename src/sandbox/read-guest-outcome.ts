import type { CodeRunError, CodeRunErrorKind, CodeRunResult, JsonValue } from './code-run.js';
import type { GuestOutcome, QuickJsLimits } from './run-in-quickjs.js';

/** A run's result as the host read it, before its time is added. */
export type GuestResult =
  | Omit<Extract<CodeRunResult, { ok: true }>, 'ms'>
  | Omit<Extract<CodeRunResult, { ok: false }>, 'ms'>;

/** Lines the QuickJS Function constructor puts before the code ("(async function anonymous(input\n) {\n"). */
const wrapperLines = 2;
const maxMessageChars = 300;

/**
 * The host's reading of what came out of the guest. The envelope was written by the prelude, but
 * the model's code ran in the same realm and may have spoiled it, so it is parsed as untrusted
 * text: bounded, checked field by field, never trusted to have the right shape.
 */
export function readGuestOutcome(
  outcome: GuestOutcome,
  limits: QuickJsLimits,
  run: { heapExhausted: boolean } = { heapExhausted: false },
): GuestResult {
  switch (outcome.type) {
    case 'interrupted':
      return { ok: false, error: timeoutError(limits), logs: [] };
    case 'unsettled':
      return failed(
        'runtime',
        "the code's promise never settled (there are no timers or I/O in the sandbox: compute synchronously)",
      );
    case 'thrown':
      // An exception the prelude could not catch while the heap was full: memory, whatever it says.
      if (run.heapExhausted) return { ok: false, error: memoryError(limits), logs: [] };
      return {
        ok: false,
        error: classifyError(outcome.name, outcome.message, '', 'runtime', limits),
        logs: [],
      };
    case 'envelope':
      return readEnvelope(outcome.text, limits, run.heapExhausted);
  }
}

function readEnvelope(text: string, limits: QuickJsLimits, heapExhausted: boolean): GuestResult {
  // Log lines are escaped as JSON, which can grow them up to six times (\u0000).
  if (text.length > limits.maxOutputChars + limits.maxLogChars * 6 + 4096) {
    return failed('output-too-large', `the result is larger than ${limits.maxOutputChars} characters`);
  }
  let envelope: unknown;
  try {
    envelope = JSON.parse(text);
  } catch {
    return failed('runtime', 'the code broke the sandbox result (its built-ins were changed)');
  }
  if (typeof envelope !== 'object' || envelope === null) return spoiled();
  const fields = envelope as Record<string, unknown>;
  const logs = readLogs(fields.logs);
  if (!logs) return spoiled();
  if (fields.ok === true && 'output' in fields) return { ok: true, output: fields.output as JsonValue, logs };
  const kind = fields.kind;
  if (fields.ok !== false || (kind !== 'syntax' && kind !== 'runtime' && kind !== 'output-too-large')) {
    return spoiled();
  }
  if (fields.thrownNull === true) {
    const error = heapExhausted
      ? memoryError(limits)
      : {
          kind: 'runtime' as const,
          message:
            'the code threw null, not an Error: throw new Error("what went wrong") to say why it stopped',
        };
    return { ok: false, error, logs };
  }
  const error = classifyError(
    textField(fields.name, 'Error'),
    textField(fields.message, 'unknown error'),
    textField(fields.stack, ''),
    kind,
    limits,
  );
  return { ok: false, error, logs };
}

/** The time limit's error, for the guest's deadline and for the parent's hard kill alike. */
export function timeoutError(limits: Pick<QuickJsLimits, 'timeoutMs'>): CodeRunError {
  return {
    kind: 'timeout',
    message: `the code ran longer than ${formatSeconds(limits.timeoutMs)} of CPU time`,
  };
}

function classifyError(
  name: string,
  message: string,
  stack: string,
  kind: CodeRunErrorKind,
  limits: QuickJsLimits,
): CodeRunError {
  if (kind === 'output-too-large') return { kind, message: bounded(message) };
  if (/out of memory|allocation failed|string too long/i.test(message)) return memoryError(limits);
  if (/stack overflow|call stack size/i.test(message)) {
    return {
      kind: 'runtime',
      message: `stack overflow: the code recursed too deep (stack limit ${limits.stackBytes / 1024} KB); use a loop`,
    };
  }
  return { kind, message: bounded(`${name}: ${message}${lineOf(stack)}`) };
}

/** " (line N)" of the model's code, from the first frame of the guest's stack that points into it. */
function lineOf(stack: string): string {
  const match = /<input>:(\d+):\d+/.exec(stack);
  const line = match ? Number(match[1]) - wrapperLines : 0;
  return line > 0 ? ` (line ${line})` : '';
}

function readLogs(value: unknown): string[] | undefined {
  if (!Array.isArray(value)) return undefined;
  return value.every((line) => typeof line === 'string') ? (value as string[]) : undefined;
}

function textField(value: unknown, fallback: string): string {
  return typeof value === 'string' && value ? value : fallback;
}

function bounded(message: string): string {
  const line = message.replace(/\s+/g, ' ').trim();
  return line.length > maxMessageChars ? `${line.slice(0, maxMessageChars)}…` : line;
}

function failed(kind: CodeRunErrorKind, message: string): GuestResult {
  return { ok: false, error: { kind, message }, logs: [] };
}

export function memoryError(limits: Pick<QuickJsLimits, 'memoryBytes'>): CodeRunError {
  return {
    kind: 'memory',
    message: `the code ran out of memory (limit ${limits.memoryBytes / 1024 / 1024} MB)`,
  };
}

function spoiled(): GuestResult {
  return failed('runtime', 'the code broke the sandbox result (its built-ins were changed)');
}

function formatSeconds(ms: number): string {
  return ms % 1000 === 0 ? `${ms / 1000} s` : `${ms} ms`;
}
