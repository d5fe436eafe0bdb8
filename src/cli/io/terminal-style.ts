import { styleText } from 'node:util';

export type Style = 'dim' | 'bold' | 'green' | 'red' | 'yellow' | 'cyan' | 'magenta';

export interface Terminal {
  write(line: string): void;
  /** Text without a line break, for output that grows in place; only on a real terminal. */
  partial?(text: string): void;
  style(style: Style, text: string): string;
  width: number;
}

/** A stream wrapper that colours only real terminals and honours NO_COLOR. */
export function createTerminal(
  stream: NodeJS.WriteStream | { write(text: string): unknown; isTTY?: boolean; columns?: number },
  env: Readonly<Record<string, string | undefined>>,
): Terminal {
  const colour = Boolean(stream.isTTY) && !env.NO_COLOR && env.TERM !== 'dumb';
  return {
    write: (line) => {
      stream.write(`${line}\n`);
    },
    ...(stream.isTTY ? { partial: (text: string) => void stream.write(text) } : {}),
    style: (style, text) => (colour ? styleText(style, text) : text),
    width: lineWidth(stream, env),
  };
}

/**
 * How wide a line may be before clipLine cuts it. A terminal: its columns. A pipe or a file (CI
 * logs): COLUMNS if set, else no cut, as an error's details cut at 100 characters are lost there.
 */
function lineWidth(
  stream: { isTTY?: boolean; columns?: number },
  env: Readonly<Record<string, string | undefined>>,
): number {
  if (stream.isTTY) return Math.max(60, Math.min(160, stream.columns ?? 100));
  const columns = Number.parseInt(env.COLUMNS ?? '', 10);
  return Number.isFinite(columns) && columns > 0 ? Math.max(60, columns) : Number.POSITIVE_INFINITY;
}

export function clipLine(text: string, width: number): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length <= width ? flat : `${flat.slice(0, width - 1)}…`;
}

// The same counts and token sizes as every other surface's progress words.
export { formatTokens, plural } from '../../events/describe-event.js';
