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
    width: Math.max(60, Math.min(160, ('columns' in stream ? stream.columns : undefined) ?? 100)),
  };
}

export function clipLine(text: string, width: number): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length <= width ? flat : `${flat.slice(0, width - 1)}…`;
}

// The same counts and token sizes as every other surface's progress words.
export { formatTokens, plural } from '../../events/describe-event.js';
