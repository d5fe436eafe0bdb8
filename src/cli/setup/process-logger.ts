import pino, { type Logger } from 'pino';

export type LogFormat = 'text' | 'json';
export type ProcessLogger = Logger;

/**
 * The log of a long-running process (`serve`, `worker`): pino, one line per event, JSON with
 * `--log-format json` (DEEPSEARCH_LOG_FORMAT=json) for a log pipeline, else a line of text a
 * person reads (`time LEVEL message key=value…`). Every line passes through `redact` (the
 * configured secrets) before it is written, whatever logged it.
 */
export function createProcessLogger(options: {
  format: LogFormat;
  /** Where a finished line goes (with its newline). */
  write: (line: string) => void;
  redact: (text: string) => string;
  /** `serve` or `worker`, on every line. */
  role: string;
}): ProcessLogger {
  const destination = {
    write(line: string) {
      const redacted = options.redact(line);
      options.write(options.format === 'json' ? redacted : `${toText(redacted)}\n`);
    },
  };
  return pino(
    {
      base: { role: options.role, pid: process.pid },
      timestamp: pino.stdTimeFunctions.isoTime,
      formatters: { level: (label) => ({ level: label }) },
    },
    destination,
  );
}

/** A pino JSON line as text: `2026-01-01T00:00:00.000Z INFO  job-finished runId=… tokens=…`. */
export function toText(line: string): string {
  let fields: Record<string, unknown>;
  try {
    fields = JSON.parse(line) as Record<string, unknown>;
  } catch {
    return line.trimEnd();
  }
  const { time, level, msg, role: _role, pid: _pid, ...rest } = fields;
  const pairs = Object.entries(rest)
    .filter(([, value]) => value !== undefined)
    .map(
      ([key, value]) =>
        `${key}=${typeof value === 'string' && !/\s/.test(value) ? value : JSON.stringify(value)}`,
    );
  return [String(time), String(level).toUpperCase().padEnd(5), String(msg ?? ''), ...pairs]
    .join(' ')
    .trimEnd();
}
