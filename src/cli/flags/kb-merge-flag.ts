import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import type { CommandValue } from '../../config/load-config.js';
import { InputError } from '../../core/errors/index.js';

/** `--kb [path]` of ask and research: what --help says of it. */
export const kbMergeFlagDescription = 'also search your knowledge base (deepsearch kb)';

/**
 * Splits `--kb [path]` from the words of the question. The flag's value is optional, so
 * `deepsearch ask --kb "what do our audits say?"` hands the question to --kb: a value that names
 * no file and does not look like one (no folder separator, no database extension) is the start of
 * the question, and --kb means the default knowledge base. A value that looks like a file but is
 * missing is an error rather than a new, empty knowledge base merged silently.
 */
export function splitKbMergeFlag(
  kb: string | boolean | undefined,
  words: string[],
  cwd: string,
): { kb: string | boolean | undefined; words: string[] } {
  if (typeof kb !== 'string' || existsSync(resolve(cwd, kb))) return { kb, words };
  if (/[/\\]/.test(kb) || /\.(sqlite3?|db)$/i.test(kb))
    throw new InputError(
      `no knowledge base at ${kb}: deepsearch kb add <files> --kb ${kb} creates one, or give --kb alone for the default`,
      { param: 'kb' },
    );
  return { kb: true, words: [kb, ...words] };
}

/**
 * The config values of `--kb [path]`, for loadCliConfig: local hits join every search step (kb:
 * sources, read from the store), from the given knowledge base file or the default one.
 */
export function kbMergeValues(kb: string | boolean | undefined, cwd: string): CommandValue[] {
  if (!kb) return [];
  return [
    ...kbFileValues(typeof kb === 'string' ? kb : undefined, cwd),
    { path: 'knowledge.merge', value: true, origin: '--kb' },
  ];
}

/** The config value of a command's `--kb <path>`: the knowledge base file, from the working directory. */
export function kbFileValues(kb: string | undefined, cwd: string): CommandValue[] {
  return kb ? [{ path: 'knowledge.file', value: resolve(cwd, kb), origin: '--kb' }] : [];
}
