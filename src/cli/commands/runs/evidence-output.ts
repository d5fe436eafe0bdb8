import { citationFormat, exportCitations } from '../../../runs/citation-export.js';
import { runEvidence, sourceView } from '../../../runs/run-evidence.js';
import type { RunRecord } from '../../../runs/run-record.js';
import type { AsyncRunStore } from '../../../scale/async-run-store.js';
import type { CliIo } from '../../io/cli-io.js';
import { createTerminal } from '../../io/terminal-style.js';

/** `runs evidence <id>`: each claim with its quote, source, when it was read and how it was checked. */
export async function printEvidence(
  io: CliIo,
  store: AsyncRunStore,
  record: RunRecord,
  flags: { json?: boolean; format?: string },
): Promise<void> {
  const format = flags.format === undefined ? undefined : citationFormat(flags.format, '--format');
  const evidence = runEvidence(record, await store.sources(record.id));
  if (format) {
    io.stdout.write(exportCitations(evidence, format));
    return;
  }
  if (flags.json) {
    io.stdout.write(`${JSON.stringify(evidence, null, 2)}\n`);
    return;
  }
  const terminal = createTerminal(io.stdout, io.env);
  terminal.write(`run ${record.id}: ${record.question}`);
  if (evidence.claims.length === 0) terminal.write('\nthe answer cites no source');
  for (const claim of evidence.claims) {
    terminal.write(`\n[${claim.footnote}] ${claim.claim || '(the footnote is not in the answer text)'}`);
    terminal.write(`    quote     "${claim.quote}"`);
    terminal.write(`    source    ${claim.title} ${terminal.style('dim', claim.url)}`);
    terminal.write(
      `    read      ${claim.accessed_at ? readTime(claim.accessed_at) : 'not read: the quote is from a search result'}`,
    );
    terminal.write(
      `    verified  yes, ${claim.quote_kind === 'exact' ? 'exact quote' : 'best matching sentence'}: ${claim.verification}`,
    );
  }
  if (evidence.sources.length > 0) terminal.write(terminal.style('bold', '\nsources'));
  for (const source of evidence.sources) {
    const read = source.accessed_at
      ? `read ${readTime(source.accessed_at)}${source.status ? `, HTTP ${source.status}` : ''}, sha-256 ${source.hash?.slice(0, 12)}`
      : 'not read';
    terminal.write(`  ${source.n}. ${source.title} ${terminal.style('dim', source.url)} (${read})`);
  }
  if (evidence.skipped.length > 0) terminal.write(terminal.style('bold', '\ncould not be read'));
  for (const page of evidence.skipped) terminal.write(`  ${page.url}: ${page.reason} (${page.detail})`);
  terminal.write(
    terminal.style(
      'dim',
      `\ndeepsearch runs source ${record.id.slice(0, 8)} <n> prints what was read for footnote n; --format csl-json|bibtex|ris exports the sources`,
    ),
  );
}

/** `runs source <id> <n>`: the text read for footnote n, its quote marked. */
export async function printSource(
  io: CliIo,
  store: AsyncRunStore,
  record: RunRecord,
  footnote: string,
): Promise<void> {
  const view = sourceView(record, await store.sources(record.id), footnote);
  const { snapshot, reference } = view;
  const terminal = createTerminal(io.stdout, io.env);
  const header = [
    `source    [${view.footnote}] ${snapshot.title}`,
    `url       ${snapshot.url}`,
    `read      ${readTime(snapshot.fetchedAt)}${snapshot.status ? ` (HTTP ${snapshot.status})` : ''}`,
    `sha-256   ${snapshot.hash}${snapshot.truncated ? ' (of the whole text; the first part is kept)' : ''}`,
    `quote     "${reference.quote}"${view.quoteStart === undefined ? ' (past the part of the text kept)' : ''}`,
  ];
  for (const line of header) terminal.write(terminal.style('dim', line));
  const { text } = snapshot;
  if (view.quoteStart === undefined || view.quoteEnd === undefined) {
    io.stdout.write(`\n${text}\n`);
    return;
  }
  const quote = text.slice(view.quoteStart, view.quoteEnd);
  // On a terminal the quote is highlighted; piped, it is marked so it can be found (and grepped).
  const coloured = terminal.style('bold', 'x') !== 'x';
  const marked = coloured ? terminal.style('yellow', terminal.style('bold', quote)) : `>>>${quote}<<<`;
  io.stdout.write(`\n${text.slice(0, view.quoteStart)}${marked}${text.slice(view.quoteEnd)}\n`);
}

function readTime(iso: string): string {
  const time = new Date(iso);
  return Number.isNaN(time.getTime()) ? iso : `${time.toISOString().slice(0, 16).replace('T', ' ')} UTC`;
}
