import { readFile, stat } from 'node:fs/promises';
import { extname, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { InputError } from '../errors/index.js';
import { fetchedToPage } from '../providers/reader/builtin/fetched-to-page.js';
import type { Page, PageReader } from '../providers/spec/page-reader.js';
import type { CliIo } from './cli-io.js';

const typesByExtension: Readonly<Record<string, string>> = {
  '.html': 'text/html',
  '.htm': 'text/html',
  '.xhtml': 'application/xhtml+xml',
  '.pdf': 'application/pdf',
  '.md': 'text/markdown',
  '.markdown': 'text/markdown',
  '.txt': 'text/plain',
  '.json': 'application/json',
};

export interface ReadInputOptions {
  input: string;
  reader: PageReader;
  io: CliIo;
  signal?: AbortSignal;
}

/**
 * One input of `deepsearch read`: an http(s) URL goes to the configured reader; `-` is stdin and
 * anything else a local file, both read by content type (from the extension, else sniffed) with the
 * same extraction as a fetched page.
 */
export async function readInput(options: ReadInputOptions): Promise<Page> {
  const { input } = options;
  if (/^https?:\/\//i.test(input)) return options.reader.read(input, { signal: options.signal });
  if (input === '-') {
    const bytes = await readAllStdin(options.io.stdin);
    return fromBytes({ name: 'stdin', url: 'stdin:', bytes, contentType: '' });
  }
  const path = resolve(options.io.cwd, input);
  let bytes: Uint8Array;
  let modified: Date;
  try {
    [bytes, modified] = await Promise.all([readFile(path), stat(path).then((info) => info.mtime)]);
  } catch (cause) {
    throw new InputError(`cannot read ${input}: not a URL (http/https) nor a readable file`, {
      param: 'input',
      cause,
    });
  }
  return fromBytes({
    name: input,
    url: pathToFileURL(path).href,
    bytes,
    contentType: typesByExtension[extname(path).toLowerCase()] ?? '',
    lastModified: modified.toUTCString(),
  });
}

function fromBytes(file: {
  name: string;
  url: string;
  bytes: Uint8Array;
  contentType: string;
  lastModified?: string;
}): Promise<Page> {
  return fetchedToPage(
    file.name,
    {
      url: file.url,
      status: 200,
      contentType: file.contentType,
      bytes: file.bytes,
      truncated: false,
      lastModified: file.lastModified,
    },
    'file',
  );
}

async function readAllStdin(stdin: CliIo['stdin']): Promise<Uint8Array> {
  const chunks: Buffer[] = [];
  for await (const chunk of stdin)
    chunks.push(typeof chunk === 'string' ? Buffer.from(chunk) : (chunk as Buffer));
  return new Uint8Array(Buffer.concat(chunks));
}
