import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { InputError, isInputError } from '../../../core/errors/index.js';
import type { ContentExtractor } from '../../../extraction/worker/content-extractor.js';
import { localSchemes, networkSchemes, schemeOf } from '../../../platform/http/source-schemes.js';
import { localBytesToPage } from '../../../providers/reader/file/local-page.js';
import type { Page, PageReader } from '../../../providers/spec/page-reader.js';
import type { CliIo } from '../../io/cli-io.js';

export interface ReadInputOptions {
  input: string;
  reader: PageReader;
  /** Parses stdin (files and URLs go through the reader). */
  extractor?: ContentExtractor;
  io: CliIo;
  signal?: AbortSignal;
}

/**
 * The source an input of `deepsearch read` names: a URL of a known scheme (http, https, file, kb)
 * as given, anything else a local path made into an absolute file: URL. undefined for stdin (-).
 */
export function inputSource(input: string, cwd: string): string | undefined {
  if (input === '-') return undefined;
  const scheme = schemeOf(input);
  if (scheme && (networkSchemes.includes(scheme) || localSchemes.includes(scheme))) return input;
  return pathToFileURL(resolve(cwd, input)).href;
}

/**
 * One input of `deepsearch read`, read by the reader of its scheme (a local file by the file
 * reader, with the same extraction as a fetched page); `-` is stdin, read by content type (sniffed).
 */
export async function readInput(options: ReadInputOptions): Promise<Page> {
  const { input } = options;
  const source = inputSource(input, options.io.cwd);
  if (source === undefined) {
    const bytes = await readAllStdin(options.io.stdin);
    return localBytesToPage(
      { requestedUrl: 'stdin', url: 'stdin:', bytes, contentType: '', providerId: 'file' },
      options.extractor,
    );
  }
  try {
    return await options.reader.read(source, { signal: options.signal });
  } catch (cause) {
    // A path that is no file may have been meant as a URL: say both.
    if (source !== input && isInputError(cause) && cause.code === 'file_unreadable') {
      throw new InputError(`cannot read ${input}: not a URL (http/https) nor a readable file`, {
        param: 'input',
        cause,
      });
    }
    throw cause;
  }
}

async function readAllStdin(stdin: CliIo['stdin']): Promise<Uint8Array> {
  const chunks: Buffer[] = [];
  for await (const chunk of stdin)
    chunks.push(typeof chunk === 'string' ? Buffer.from(chunk) : (chunk as Buffer));
  return new Uint8Array(Buffer.concat(chunks));
}
