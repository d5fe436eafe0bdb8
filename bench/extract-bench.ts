/**
 * `npm run bench:extract`: our extractor against itself without arbitration (our structure
 * candidate alone), plain Mozilla Readability and the page's whole text, in one run, over two sets:
 * the WCXB dev pages in ../shared/eval/extraction/wcxb-dev/ (word 4-gram F1, by page type) and the
 * trafilatura-eval pages in ../shared/eval/extraction/trafilatura-eval/ (passages found and absent).
 * Pages are split by a hash of their id into a tuning part and a held-out part (extraction-table.ts);
 * both are printed, with the pages where ours falls more than 0.2 below Readability. Asserts nothing.
 * Options: --limit N (first N pages of each set), --type T (one WCXB page type), --data DIR (WCXB
 * folder), --traf-data DIR, --set wcxb|trafilatura (one set), --every N (every Nth page),
 * --part tune|held-out (one part), --dump FILE (per-page scores and signals), --before DIR (also run
 * the extractor compiled in DIR, e.g. main's `.bench-build`, for quality and CPU time in the same run).
 * Then, for WCXB, the extraction pool's cost on the same pages (extraction-pool-cost.ts; --pool-pages N
 * for the first N, 0 skips it), and the
 * client-rendered slice (client-rendered-slice.ts): --browser-pages N article and documentation
 * pages as app shells, builtin vs browser reader (default 40; 0 skips it).
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { gunzipSync } from 'node:zlib';
import { Readability } from '@mozilla/readability';
import { parseHTML } from 'linkedom';
import { domToText } from '../src/extraction/html/dom-to-text.js';
import { type ContentSignals, extractMainContent } from '../src/extraction/html/extract-main-content.js';
import { readPageMetadata } from '../src/extraction/html/page-metadata.js';
import { runClientRenderedSlice } from './client-rendered-slice.js';
import { evalRoot } from './eval-root.mjs';
import { measurePoolCost } from './extraction-pool-cost.js';
import { type PageScore, scorePage, shingles } from './extraction-score.js';
import { partOf, printExtractionTable, printTimes, type Run, slicesOf } from './extraction-table.js';
import { scorePassages } from './passage-score.js';
import { type PassageRun, passageSlicesOf, printPassageTable } from './passage-table.js';
import { readTrafilaturaCases, readTrafilaturaHtml } from './trafilatura-cases.js';

interface TruthRecord {
  id: string;
  url: string;
  page_type: string;
  main_content: string;
  with?: string[];
  without?: string[];
}

interface Extraction {
  text: string;
  source?: string;
  signals?: ContentSignals;
  candidates?: { readability: string; structure: string };
}

interface Extractor {
  name: string;
  extract(html: string, url: string): Extraction;
}

type ExtractMainContent = typeof extractMainContent;
type ReadPageMetadata = typeof readPageMetadata;

/** What the reader does for the main content: parse, metadata (for the page-type signals), extract. */
function createOurExtractor(extract: ExtractMainContent, readMetadata: ReadPageMetadata, arbitrate = true) {
  return (html: string, url: string): Extraction => {
    const { document } = parseHTML(html);
    const { pageTypes, articleBody } = readMetadata(document);
    const options = { url, pageTypes, articleBody, ...(arbitrate ? {} : { arbitrate: false }) };
    const content = extract(document as unknown as Document, options);
    return {
      text: content.text,
      source: content.source,
      signals: content.signals,
      candidates: content.candidates,
    };
  };
}

function plainReadability(html: string, url: string): string {
  const { document } = parseHTML(html);
  Object.defineProperty(document, 'documentURI', { value: url, configurable: true });
  try {
    return new Readability(document).parse()?.textContent ?? '';
  } catch {
    return '';
  }
}

/** The floor: every visible line of the page's body, furniture and all. */
function pageText(html: string): string {
  const { document } = parseHTML(html);
  const body = document.querySelector('body') ?? document.body;
  return body ? domToText(body) : '';
}

/** The extractor compiled in another build directory (e.g. main's), for a before/after in one run. */
async function loadBefore(directory: string): Promise<Extractor> {
  const folders = ['src/extraction/html', 'src/providers/reader/builtin'].map((folder) =>
    join(resolve(directory), folder),
  );
  const folder = folders.find((candidate) => existsSync(join(candidate, 'extract-main-content.js')))!;
  const extraction = (await import(join(folder, 'extract-main-content.js'))) as {
    extractMainContent: ExtractMainContent;
  };
  const metadata = (await import(join(folder, 'page-metadata.js'))) as { readPageMetadata: ReadPageMetadata };
  return {
    name: 'before',
    extract: createOurExtractor(extraction.extractMainContent, metadata.readPageMetadata),
  };
}

type Timings = Map<string, Pick<Run, 'cpuMs' | 'wallMs'>>;

/** Runs one extractor on one page, timing its CPU and wall clock. */
function measure(timings: Timings, extractor: Extractor, html: string, url: string): Extraction {
  const startedCpu = process.cpuUsage();
  const startedWall = performance.now();
  const extraction = extractor.extract(html, url);
  const wall = performance.now() - startedWall;
  const cpu = process.cpuUsage(startedCpu);
  if (!timings.has(extractor.name)) timings.set(extractor.name, { cpuMs: [], wallMs: [] });
  timings.get(extractor.name)!.wallMs.push(wall);
  timings.get(extractor.name)!.cpuMs.push((cpu.user + cpu.system) / 1000);
  return extraction;
}

interface SetOptions {
  extractors: Extractor[];
  every: number;
  limit?: number;
  part?: string;
  dump: string[] | undefined;
}

function select<T extends { id: string }>(items: T[], options: SetOptions): T[] {
  return items
    .filter((_, index) => index % options.every === 0)
    .filter((item) => !options.part || partOf(item.id) === options.part)
    .slice(0, options.limit);
}

function runWcxb(directory: string, type: string | undefined, options: SetOptions): TruthRecord[] {
  const records = select(
    readTruth(directory).filter((record) => !type || record.page_type === type),
    options,
  );
  const names = options.extractors.map((extractor) => extractor.name);
  const runs = new Map<string, Run>(
    names.map((name) => [name, { scores: new Map(), cpuMs: [], wallMs: [] }]),
  );
  const timings: Timings = new Map();
  for (const record of records) {
    const html = gunzipSync(readFileSync(join(directory, 'html', `${record.id}.html.gz`))).toString('utf8');
    const truth = shingles(record.main_content);
    const line: Record<string, unknown> = { set: 'wcxb', id: record.id, type: record.page_type };
    // The page types the reader reads put the page in the news slice, for every extractor alike.
    const { pageTypes } = readPageMetadata(parseHTML(html).document);
    for (const extractor of options.extractors) {
      const extraction = measure(timings, extractor, html, record.url);
      const score = scorePage({
        extracted: extraction.text,
        truth,
        with: record.with ?? [],
        without: record.without ?? [],
      });
      const run = runs.get(extractor.name)!;
      for (const key of slicesOf(record, pageTypes)) {
        if (!run.scores.has(key)) run.scores.set(key, []);
        run.scores.get(key)!.push(score);
      }
      line[extractor.name] = {
        ...score,
        source: extraction.source,
        signals: extraction.signals,
        ...(options.dump && extraction.candidates ? scoreCandidates(extraction.candidates, truth) : {}),
      };
    }
    options.dump?.push(JSON.stringify(line));
  }
  for (const [name, timing] of timings) Object.assign(runs.get(name)!, timing);
  console.log('\nWCXB dev: word 4-gram F1 (P/R)');
  printExtractionTable(runs, names);
  return records;
}

function runTrafilatura(directory: string, options: SetOptions): void {
  const cases = select(readTrafilaturaCases(directory), options);
  const names = options.extractors.map((extractor) => extractor.name);
  const runs = new Map<string, PassageRun>(names.map((name) => [name, new Map()]));
  const timings: Timings = new Map();
  for (const page of cases) {
    const html = readTrafilaturaHtml(directory, page.id);
    const { pageTypes } = readPageMetadata(parseHTML(html).document);
    const line: Record<string, unknown> = { set: 'trafilatura', id: page.id, part: partOf(page.id) };
    for (const extractor of options.extractors) {
      const extraction = measure(timings, extractor, html, page.url);
      const score = scorePassages(extraction.text, page);
      const run = runs.get(extractor.name)!;
      for (const key of passageSlicesOf(page.id, pageTypes)) {
        if (!run.has(key)) run.set(key, []);
        run.get(key)!.push(score);
      }
      line[extractor.name] = { ...score, source: extraction.source, chars: extraction.text.length };
    }
    options.dump?.push(JSON.stringify(line));
  }
  printPassageTable(runs, names);
  console.log('\ntrafilatura-eval timing:');
  printTimes(timings, names);
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      limit: { type: 'string' },
      type: { type: 'string' },
      data: { type: 'string', default: join(evalRoot, 'extraction', 'wcxb-dev') },
      'traf-data': { type: 'string', default: join(evalRoot, 'extraction', 'trafilatura-eval') },
      set: { type: 'string' },
      every: { type: 'string' },
      part: { type: 'string' },
      dump: { type: 'string' },
      before: { type: 'string' },
      'browser-pages': { type: 'string', default: '40' },
      'pool-pages': { type: 'string' },
    },
  });
  const extractors: Extractor[] = [
    { name: 'deepsearch', extract: createOurExtractor(extractMainContent, readPageMetadata) },
    { name: 'no arbitration', extract: createOurExtractor(extractMainContent, readPageMetadata, false) },
    ...(values.before ? [await loadBefore(values.before)] : []),
    { name: 'readability', extract: (html, url) => ({ text: plainReadability(html, url) }) },
    { name: 'page text', extract: (html) => ({ text: pageText(html) }) },
  ];
  const options: SetOptions = {
    extractors,
    every: Number(values.every ?? 1),
    limit: values.limit ? Number(values.limit) : undefined,
    part: values.part,
    dump: values.dump ? [] : undefined,
  };
  if (values.set !== 'wcxb') runTrafilatura(values['traf-data']!, options);
  if (values.set !== 'trafilatura') {
    const directory = values.data!;
    const records = runWcxb(directory, values.type, options);
    const poolPages = values['pool-pages'] ? Number(values['pool-pages']) : undefined;
    const ids = records.map((record) => record.id).slice(0, poolPages);
    if (ids.length > 0) await measurePoolCost({ directory, ids });
    const pages = Number(values['browser-pages']);
    if (pages > 0) await runClientRenderedSlice({ directory, records, pages });
  }
  if (values.dump && options.dump) writeFileSync(values.dump, `${options.dump.join('\n')}\n`);
}

/** Each candidate scored on its own, for studying the chooser (--dump). */
function scoreCandidates(
  candidates: { readability: string; structure: string },
  truth: Set<string>,
): Record<string, PageScore> {
  const score = (text: string) => scorePage({ extracted: text, truth, with: [], without: [] });
  return {
    readabilityCandidate: score(candidates.readability),
    structureCandidate: score(candidates.structure),
  };
}

function readTruth(directory: string): TruthRecord[] {
  return gunzipSync(readFileSync(join(directory, 'ground-truth.jsonl.gz')))
    .toString('utf8')
    .split('\n')
    .filter((line) => line.trim())
    .map((line) => JSON.parse(line) as TruthRecord);
}

await main();
