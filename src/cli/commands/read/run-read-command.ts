import { fileURLToPath } from 'node:url';
import { keepConfigOrigins } from '../../../config/config-origins.js';
import type { DeepSearchConfig } from '../../../config/config-schema.js';
import { InputError, isAbortError } from '../../../core/errors/index.js';
import type { ContentExtractor } from '../../../extraction/worker/content-extractor.js';
import { isNetworkUrl } from '../../../platform/http/source-schemes.js';
import type { Page, PageReader } from '../../../providers/spec/page-reader.js';
import type { CliIo } from '../../io/cli-io.js';
import { ReportedFailure } from '../../io/exit-codes.js';
import { loadCliConfig } from '../../setup/load-cli-config.js';
import type { ReadFormat } from './read-command.js';
import { createReadExtractor, readConcurrency } from './read-extractor.js';
import { inputSource, readInput } from './read-input.js';

export interface ReadCommandOptions {
  inputs: string[];
  format: ReadFormat;
  flags: Record<string, unknown>;
  configPath: string | undefined;
}

/**
 * `deepsearch read <url|file|->...`: each input read with the configured reader (the same
 * extraction the agent uses), concurrently, printed in the order given. With several inputs and
 * `--format json`, one JSON line per input; a failed input gets an error line and the first failure
 * decides the exit code once every input has been printed.
 */
export async function runReadCommand(io: CliIo, options: ReadCommandOptions): Promise<void> {
  const { format } = options;
  const inputs = options.inputs.length > 0 ? options.inputs : io.stdin.isTTY ? [] : ['-'];
  if (inputs.length === 0) {
    throw new InputError('nothing to read: run deepsearch read <url|file|-> (several may be given)', {
      param: 'input',
    });
  }
  if (inputs.filter((input) => input === '-').length > 1) {
    throw new InputError('stdin (-) can be read only once', { param: 'input' });
  }
  const config = allowNamedFiles(loadCliConfig(io, options.flags, options.configPath), inputs, io.cwd);
  // The extractor first: an extraction process boots while this process loads and builds its
  // runtime (imported only now, so the process is spawned before those modules are read) and
  // fetches, unless every input is a small local file, parsed here. stdin is parsed by the same
  // extractor as the runtime's reads.
  const extractor = createReadExtractor(config.reader.extraction, inputs, io.cwd);
  const reader = await createReadReader(io, config, inputs, extractor);
  // The web reader's libraries load while the first page is fetched (not needed for files).
  if (inputs.some(isNetworkUrl)) void reader.prepare?.();
  // Each outcome is settled as it is made: a later input failing while an earlier one is still being
  // read must not be an unhandled rejection.
  const outcomes = mapLimited(inputs, readConcurrency, (input) =>
    readInput({ input, reader, extractor, io, signal: io.signal }),
  ).map((pending) =>
    pending.then(
      (page) => ({ page }),
      (error: unknown) => ({ error }),
    ),
  );
  const several = inputs.length > 1;
  let firstError: unknown;
  let printed = 0;
  for (const [index, pending] of outcomes.entries()) {
    const outcome = await pending;
    if ('error' in outcome) {
      if (isAbortError(outcome.error)) throw outcome.error;
      firstError ??= outcome.error;
      if (format === 'json') io.stdout.write(`${JSON.stringify(errorJson(inputs[index]!, outcome.error))}\n`);
      else if (several) io.stderr.write(`deepsearch: ${inputs[index]}: ${messageOf(outcome.error)}\n`);
      continue;
    }
    io.stdout.write(renderPage(outcome.page, format, { several, first: printed++ === 0 }));
    if (outcome.page.emptyShell || outcome.page.emptyReason) io.stderr.write(`${shellNote(outcome.page)}\n`);
  }
  if (firstError === undefined) return;
  // One input, as text: its error is the command's, printed once by the CLI. Otherwise each failure
  // has had its line already.
  throw format === 'json' || several ? new ReportedFailure(firstError) : firstError;
}

/**
 * Why a page came out (nearly) empty, and what would read it: the reader's reason (an app shell
 * the builtin reader does not run, one Chromium could not render, one whose scripts wrote nothing).
 */
function shellNote(page: Page): string {
  const reason = page.emptyReason ?? 'an app shell whose text its scripts write';
  return `deepsearch: note: ${page.url} is ${reason}`;
}

/**
 * The runtime's reader; for local files and stdin only, its file reader alone (createLocalReader),
 * without loading the rest of the runtime (the web reader, cache, LLM and search providers).
 */
async function createReadReader(
  io: CliIo,
  config: DeepSearchConfig,
  inputs: readonly string[],
  extractor: ContentExtractor,
): Promise<PageReader> {
  const local = inputs.every(
    (input) => inputSource(input, io.cwd)?.toLowerCase().startsWith('file:') ?? true,
  );
  if (local) {
    const { createLocalReader } = await import('../../../runtime/create-local-reader.js');
    return createLocalReader({ config, extractor });
  }
  const { createCliRuntime } = await import('../../setup/create-cli-runtime.js');
  return createCliRuntime(io, config, { extractor }).reader;
}

/**
 * Files named on the command line are read whatever reader.allowFiles says (naming them is the
 * permission), and only those: the file reader's allowed roots become exactly these files.
 */
function allowNamedFiles(config: DeepSearchConfig, inputs: readonly string[], cwd: string): DeepSearchConfig {
  const files = inputs
    .map((input) => inputSource(input, cwd))
    .filter((source): source is string => source?.toLowerCase().startsWith('file:') === true)
    .flatMap((source) => {
      try {
        return [fileURLToPath(source)];
      } catch {
        return []; // file://host/...: the file reader refuses it with its own message
      }
    });
  if (files.length === 0) return config;
  return keepConfigOrigins(
    { ...config, reader: { ...config.reader, allowFiles: true, fileRoots: files } },
    config,
  );
}

/** Starts at most `limit` tasks at a time; the promises come back in input order. */
function mapLimited<T, R>(items: readonly T[], limit: number, task: (item: T) => Promise<R>): Promise<R>[] {
  let running = 0;
  const waiting: Array<() => void> = [];
  const release = () => {
    running--;
    waiting.shift()?.();
  };
  return items.map(async (item) => {
    if (running >= limit) await new Promise<void>((resolve) => waiting.push(resolve));
    running++;
    try {
      return await task(item);
    } finally {
      release();
    }
  });
}

export function pageJson(page: Page): Record<string, unknown> {
  return {
    title: page.title,
    url: page.url,
    date: page.publishedAt ?? page.modifiedAt ?? null,
    publishedAt: page.publishedAt ?? null,
    modifiedAt: page.modifiedAt ?? null,
    byline: page.byline ?? null,
    contentType: page.contentType,
    paywalled: page.paywalled ?? false,
    emptyReason: page.emptyReason ?? null,
    markdown: page.markdown,
    text: page.text,
    links: page.links,
  };
}

function errorJson(input: string, error: unknown): Record<string, unknown> {
  const code = (error as { code?: unknown }).code;
  return {
    url: input,
    error: { code: typeof code === 'string' ? code : 'error', message: messageOf(error) },
  };
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

function renderPage(page: Page, format: ReadFormat, position: { several: boolean; first: boolean }): string {
  if (format === 'json') return `${JSON.stringify(pageJson(page))}\n`;
  const separator = position.first ? '' : '\n---\n\n';
  if (format === 'text') {
    return position.several ? `${separator}${page.title}\n${page.url}\n\n${page.text}\n` : `${page.text}\n`;
  }
  // The extractor drops a heading that repeats the title; markdown on its own should still have it.
  const title = /^#\s/.test(page.markdown) || !page.title.trim() ? '' : `# ${page.title}\n\n`;
  const source = position.several ? `<${page.url}>\n\n` : '';
  return `${separator}${title}${source}${page.markdown}\n`;
}
