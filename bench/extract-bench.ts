/**
 * `npm run bench:extract`: our extractor against plain Mozilla Readability on linkedom, over the
 * WCXB dev pages in ../shared/eval/extraction/wcxb-dev/. Prints numbers; asserts nothing.
 * Options: --limit N (first N pages), --type T (one page type), --data DIR, --every N (every Nth page),
 * --dump FILE (per-page scores and signals). Article pages are also reported by even and odd id.
 * Then the client-rendered slice (client-rendered-slice.ts): --browser-pages N of the article and
 * documentation pages as app shells, builtin vs browser reader (default 40; 0 skips it).
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import { gunzipSync } from 'node:zlib';
import { Readability } from '@mozilla/readability';
import { parseHTML } from 'linkedom';
import {
  type ContentSignals,
  extractMainContent,
} from '../src/providers/reader/builtin/extract-main-content.js';
import { readPageMetadata } from '../src/providers/reader/builtin/page-metadata.js';
import { runClientRenderedSlice, type SlicePage } from './client-rendered-slice.js';
import {
  median,
  type PageScore,
  type ScoreSummary,
  scorePage,
  shingles,
  summarise,
} from './extraction-score.js';

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

const extractors: Extractor[] = [
  { name: 'deepsearch', extract: ourExtractor },
  { name: 'readability', extract: (html, url) => ({ text: plainReadability(html, url) }) },
];

/** What the reader does for the main content: parse, metadata (for the page-type signals), extract. */
function ourExtractor(html: string, url: string): Extraction {
  const { document } = parseHTML(html);
  const { pageTypes } = readPageMetadata(document);
  const content = extractMainContent(document as unknown as Document, { url, pageTypes });
  return {
    text: content.text,
    source: content.source,
    signals: content.signals,
    candidates: content.candidates,
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

interface Run {
  scores: Map<string, PageScore[]>;
  times: number[];
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      limit: { type: 'string' },
      type: { type: 'string' },
      data: { type: 'string', default: resolve('..', 'shared', 'eval', 'extraction', 'wcxb-dev') },
      every: { type: 'string' },
      dump: { type: 'string' },
      'browser-pages': { type: 'string', default: '40' },
    },
  });
  const every = Number(values.every ?? 1);
  const dump: string[] = [];
  const directory = values.data!;
  const records = readTruth(directory)
    .filter((record, index) => (!values.type || record.page_type === values.type) && index % every === 0)
    .slice(0, values.limit ? Number(values.limit) : undefined);
  const runs = new Map<string, Run>(
    extractors.map((extractor) => [extractor.name, { scores: new Map(), times: [] }]),
  );
  for (const record of records) {
    const html = gunzipSync(readFileSync(join(directory, 'html', `${record.id}.html.gz`))).toString('utf8');
    const truth = shingles(record.main_content);
    const line: Record<string, unknown> = { id: record.id, type: record.page_type };
    for (const extractor of extractors) {
      const run = runs.get(extractor.name)!;
      const started = performance.now();
      const extraction = extractor.extract(html, record.url);
      run.times.push(performance.now() - started);
      const score = scorePage({
        extracted: extraction.text,
        truth,
        with: record.with ?? [],
        without: record.without ?? [],
      });
      line[extractor.name] = {
        ...score,
        source: extraction.source,
        signals: extraction.signals,
        ...(values.dump && extraction.candidates ? scoreCandidates(extraction.candidates, truth) : {}),
      };
      // Article pages also scored by id parity: develop on one half, check the other (held-out style).
      const half = `${record.page_type} (${Number(record.id) % 2 === 0 ? 'even' : 'odd'} ids)`;
      for (const key of ['all', record.page_type, ...(record.page_type === 'article' ? [half] : [])]) {
        if (!run.scores.has(key)) run.scores.set(key, []);
        run.scores.get(key)!.push(score);
      }
    }
    dump.push(JSON.stringify(line));
  }
  if (values.dump) writeFileSync(values.dump, `${dump.join('\n')}\n`);
  printTable(runs);
  const browserPages = Number(values['browser-pages']);
  if (browserPages > 0) await runClientRenderedSlice(...slicePages(directory, records, browserPages));
}

/** Every `step`-th article and documentation page (n in all), and every page read, as slice pages. */
function slicePages(directory: string, records: TruthRecord[], n: number): [SlicePage[], SlicePage[]] {
  const load = (record: TruthRecord): SlicePage => ({
    id: record.id,
    html: gunzipSync(readFileSync(join(directory, 'html', `${record.id}.html.gz`))).toString('utf8'),
    truth: record.main_content,
  });
  const kinds = records.filter(
    (record) => record.page_type === 'article' || record.page_type === 'documentation',
  );
  const step = Math.max(1, Math.floor(kinds.length / n));
  return [
    kinds
      .filter((_, index) => index % step === 0)
      .slice(0, n)
      .map(load),
    records.map(load),
  ];
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

function printTable(runs: Map<string, Run>): void {
  const ours = runs.get('deepsearch')!;
  const baseline = runs.get('readability')!;
  const keys = ['all', ...[...ours.scores.keys()].filter((key) => key !== 'all').sort()];
  const format = (value: number) => value.toFixed(3);
  const row = (cells: string[]) => `| ${cells.join(' | ')} |`;
  console.log(
    row(['page type', 'pages', 'extractor', 'P', 'R', 'F1', 'with kept', 'without dropped', 'ΔF1']),
  );
  console.log(row(Array(9).fill('---')));
  for (const key of keys) {
    const mine = summarise(ours.scores.get(key)!);
    const theirs = summarise(baseline.scores.get(key)!);
    const cells = (name: string, summary: ScoreSummary, delta: string) => [
      key,
      String(summary.pages),
      name,
      format(summary.precision),
      format(summary.recall),
      format(summary.f1),
      format(summary.withKept),
      format(summary.withoutDropped),
      delta,
    ];
    console.log(
      row(cells('deepsearch', mine, (mine.f1 - theirs.f1 >= 0 ? '+' : '') + format(mine.f1 - theirs.f1))),
    );
    console.log(row(cells('readability', theirs, '')));
  }
  const ourMedian = median(ours.times);
  const theirMedian = median(baseline.times);
  console.log(
    `\nmedian ms per page: deepsearch ${ourMedian.toFixed(1)} · readability ${theirMedian.toFixed(1)} · ratio ${(ourMedian / theirMedian).toFixed(2)}`,
  );
}

await main();
