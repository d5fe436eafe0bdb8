import { InputError } from '../errors/index.js';
import type { Page } from '../providers/spec/page-reader.js';
import type { CliIo } from './cli-io.js';
import { createCliRuntime } from './create-cli-runtime.js';
import { loadCliConfig } from './load-cli-config.js';
import type { ReadFormat } from './read-command.js';
import { readInput } from './read-input.js';

export interface ReadCommandOptions {
  inputs: string[];
  format: ReadFormat;
  flags: Record<string, unknown>;
  configPath: string | undefined;
}

/** Pages read at once; more would only queue behind the network. */
const concurrency = 4;

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
  const config = loadCliConfig(io, options.flags, options.configPath);
  const { reader } = createCliRuntime(io, config);
  const results = mapLimited(inputs, concurrency, (input) =>
    readInput({ input, reader, io, signal: io.signal }),
  );
  let firstError: unknown;
  for (const [index, result] of results.entries()) {
    const outcome = await result.then(
      (page) => ({ page }),
      (error: unknown) => ({ error }),
    );
    if ('error' in outcome) {
      firstError ??= outcome.error;
      if (format === 'json') io.stdout.write(`${JSON.stringify(errorJson(inputs[index]!, outcome.error))}\n`);
      else if (inputs.length > 1)
        io.stderr.write(`deepsearch: ${inputs[index]}: ${messageOf(outcome.error)}\n`);
      continue;
    }
    io.stdout.write(renderPage(outcome.page, format, { several: inputs.length > 1, first: index === 0 }));
  }
  if (firstError !== undefined) throw firstError;
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
  const title = /^#\s/.test(page.markdown) ? '' : `# ${page.title}\n\n`;
  const source = position.several ? `<${page.url}>\n\n` : '';
  return `${separator}${title}${source}${page.markdown}\n`;
}
