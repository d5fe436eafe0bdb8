import { InputError } from '../../../core/errors/index.js';
import { describeSearchNotice } from '../../../providers/search/fallback-search.js';
import type { SearchHit, SearchOptions, TimeRange } from '../../../providers/spec/search-provider.js';
import { kbMergeValues, splitKbMergeFlag } from '../../flags/kb-merge-flag.js';
import { type CliIo, readPipedStdin } from '../../io/cli-io.js';
import { clipLine, createTerminal, type Terminal } from '../../io/terminal-style.js';
import { createCliRuntime } from '../../setup/create-cli-runtime.js';
import { prepareSearch } from '../../setup/first-run-setup.js';
import { loadCliConfig } from '../../setup/load-cli-config.js';
import type { SearchCommandFlags } from './search-command.js';

/**
 * `deepsearch search`: the hits (the knowledge base's too with --kb), or one JSON document with
 * --json; fallback notices on stderr.
 */
export async function runSearchCommand(
  io: CliIo,
  input: { words: string[]; flags: SearchCommandFlags; settingFlags: Record<string, unknown> },
): Promise<void> {
  // --kb [path]: the knowledge base's hits join the web's, as they do in every search step of
  // `ask --kb`, so what the agent is given can be seen.
  const { kb, words } = splitKbMergeFlag(input.flags.kb, input.words, io.cwd);
  const query = words.join(' ').trim() || (await readPipedStdin(io.stdin));
  if (!query) throw new InputError('missing query: run deepsearch search "your query"', { param: 'query' });
  // Bad flags are refused before any note about the provider or any request.
  const options = searchOptions(input.flags);
  const config = loadCliConfig(io, input.settingFlags, input.flags.config, kbMergeValues(kb, io.cwd));
  prepareSearch(io, config, { quiet: input.flags.quiet });
  const runtime = createCliRuntime(io, config);
  const errors = createTerminal(io.stderr, io.env);
  try {
    const hits = await runtime.search.search(query, {
      ...options,
      signal: io.signal,
      onNotice: input.flags.quiet
        ? undefined
        : (notice) => errors.write(errors.style('yellow', `! ${describeSearchNotice(query, notice)}`)),
    });
    if (input.flags.json) {
      io.stdout.write(`${JSON.stringify({ query, provider: runtime.search.id, hits })}\n`);
    } else {
      io.stdout.write(renderHits(hits, createTerminal(io.stdout, io.env)));
    }
  } finally {
    runtime.close();
  }
}

function searchOptions(flags: SearchCommandFlags): SearchOptions {
  const options: SearchOptions = {};
  if (flags.count !== undefined) {
    const count = Number(flags.count);
    if (!Number.isInteger(count) || count < 1 || count > 50) {
      throw new InputError(`--count must be a whole number from 1 to 50 (got "${flags.count}")`, {
        param: 'count',
      });
    }
    options.count = count;
  }
  if (flags.timeRange) options.timeRange = flags.timeRange as TimeRange;
  if (flags.site) options.site = flags.site;
  if (flags.lang) options.language = languageTag(flags.lang);
  if (flags.region) {
    if (!/^[A-Za-z]{2}$/.test(flags.region))
      throw new InputError(
        `--region must be a two-letter country code such as us or de (got "${flags.region}")`,
        {
          param: 'region',
        },
      );
    options.region = flags.region;
  }
  return options;
}

/** A BCP 47 tag as the user wrote it, once Intl has accepted it. */
function languageTag(tag: string): string {
  try {
    Intl.getCanonicalLocales(tag);
    return tag;
  } catch {
    throw new InputError(`--lang must be a language tag such as en or fr-FR (got "${tag}")`, {
      param: 'lang',
    });
  }
}

/** One block per hit: number and title, URL, snippet and date when known. */
export function renderHits(hits: readonly SearchHit[], terminal: Terminal): string {
  if (hits.length === 0) return 'no results\n';
  const width = terminal.width - 4;
  const blocks = hits.map((hit, index) => {
    const lines = [`${terminal.style('bold', `${index + 1}. ${clipLine(hit.title || hit.url, width)}`)}`];
    lines.push(`   ${terminal.style('cyan', hit.url)}`);
    if (hit.snippet) lines.push(`   ${clipLine(hit.snippet, width * 2)}`);
    if (hit.publishedAt) lines.push(`   ${terminal.style('dim', hit.publishedAt.slice(0, 10))}`);
    return lines.join('\n');
  });
  return `${blocks.join('\n\n')}\n`;
}
