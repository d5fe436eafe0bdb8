/**
 * `npm run bench:extract`: our extractor against plain Mozilla Readability and the page's whole text,
 * in one run, over the WCXB dev pages in ../shared/eval/extraction/wcxb-dev/. Pages are split by a
 * hash of their id into a tuning part and a held-out part (extraction-split.ts); both are printed,
 * by page type and for short articles. Prints numbers; asserts nothing.
 * Options: --limit N (first N pages), --type T (one page type), --data DIR (default: extraction/wcxb-dev
 * under the eval folder eval-root.mjs finds), --every N (every Nth page),
 * --part tune|held-out (one part), --dump FILE (per-page scores and signals), --before DIR (also run
 * the extractor compiled in DIR, e.g. main's `.bench-build`, for quality and CPU time in the same run).
 * Then the extraction pool's cost on the same pages (extraction-pool-cost.ts), and the
 * client-rendered slice (client-rendered-slice.ts): --browser-pages N article and documentation
 * pages as app shells, builtin vs browser reader (default 40; 0 skips it).
 */
import { readFileSync, writeFileSync } from 'node:fs';
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
import { partOf, printExtractionTable, type Run, slicesOf } from './extraction-table.js';

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
function createOurExtractor(extract: ExtractMainContent, readMetadata: ReadPageMetadata) {
  return (html: string, url: string): Extraction => {
    const { document } = parseHTML(html);
    const { pageTypes, articleBody } = readMetadata(document);
    const content = extract(document as unknown as Document, { url, pageTypes, articleBody });
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
  const builtin = join(resolve(directory), 'src', 'providers', 'reader', 'builtin');
  const extraction = (await import(join(builtin, 'extract-main-content.js'))) as {
    extractMainContent: ExtractMainContent;
  };
  const metadata = (await import(join(builtin, 'page-metadata.js'))) as {
    readPageMetadata: ReadPageMetadata;
  };
  return {
    name: 'before',
    extract: createOurExtractor(extraction.extractMainContent, metadata.readPageMetadata),
  };
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      limit: { type: 'string' },
      type: { type: 'string' },
      data: { type: 'string', default: join(evalRoot, 'extraction', 'wcxb-dev') },
      every: { type: 'string' },
      part: { type: 'string' },
      dump: { type: 'string' },
      before: { type: 'string' },
      'browser-pages': { type: 'string', default: '40' },
    },
  });
  const extractors: Extractor[] = [
    { name: 'deepsearch', extract: createOurExtractor(extractMainContent, readPageMetadata) },
    ...(values.before ? [await loadBefore(values.before)] : []),
    { name: 'readability', extract: (html, url) => ({ text: plainReadability(html, url) }) },
    { name: 'page text', extract: (html) => ({ text: pageText(html) }) },
  ];
  const every = Number(values.every ?? 1);
  const directory = values.data!;
  const records = readTruth(directory)
    .filter((record, index) => (!values.type || record.page_type === values.type) && index % every === 0)
    .filter((record) => !values.part || partOf(record.id) === values.part)
    .slice(0, values.limit ? Number(values.limit) : undefined);
  const runs = new Map<string, Run>(
    extractors.map((extractor) => [extractor.name, { scores: new Map(), cpuMs: [], wallMs: [] }]),
  );
  const dump: string[] = [];
  for (const record of records) {
    const html = gunzipSync(readFileSync(join(directory, 'html', `${record.id}.html.gz`))).toString('utf8');
    const truth = shingles(record.main_content);
    const line: Record<string, unknown> = { id: record.id, type: record.page_type };
    // The page types the reader reads put the page in the news slice, for every extractor alike.
    const { pageTypes } = readPageMetadata(parseHTML(html).document);
    for (const extractor of extractors) {
      const page = { record, html, truth, pageTypes };
      const { extraction, score } = measure(runs.get(extractor.name)!, extractor, page);
      line[extractor.name] = {
        ...score,
        source: extraction.source,
        signals: extraction.signals,
        ...(values.dump && extraction.candidates ? scoreCandidates(extraction.candidates, truth) : {}),
      };
    }
    dump.push(JSON.stringify(line));
  }
  if (values.dump) writeFileSync(values.dump, `${dump.join('\n')}\n`);
  printExtractionTable(
    runs,
    extractors.map((extractor) => extractor.name),
  );
  await measurePoolCost({ directory, ids: records.map((record) => record.id) });
  const pages = Number(values['browser-pages']);
  if (pages > 0) await runClientRenderedSlice({ directory, records, pages });
}

/** Runs one extractor on one page, timing its CPU and wall clock, and files the score under each slice. */
function measure(
  run: Run,
  extractor: Extractor,
  page: { record: TruthRecord; html: string; truth: Set<string>; pageTypes: readonly string[] },
) {
  const startedCpu = process.cpuUsage();
  const startedWall = performance.now();
  const extraction = extractor.extract(page.html, page.record.url);
  const wall = performance.now() - startedWall;
  const cpu = process.cpuUsage(startedCpu);
  run.wallMs.push(wall);
  run.cpuMs.push((cpu.user + cpu.system) / 1000);
  const score = scorePage({
    extracted: extraction.text,
    truth: page.truth,
    with: page.record.with ?? [],
    without: page.record.without ?? [],
  });
  for (const key of slicesOf(page.record, page.pageTypes)) {
    if (!run.scores.has(key)) run.scores.set(key, []);
    run.scores.get(key)!.push(score);
  }
  return { extraction, score };
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
