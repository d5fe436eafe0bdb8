/**
 * The client-rendered slice of `npm run bench:extract`: WCXB pages turned into app shells (an
 * empty `<div id="root">`, a `<noscript>`, and a script that writes the page's body into the root,
 * from data inlined in the page for half of them and fetched from /data/<id>.json for the other
 * half), served on 127.0.0.1. The builtin reader reads the shell as sent; the browser reader runs
 * it in Chromium. Same ground truth as the page it came from. Also: how often auto mode would
 * start the browser, on these shells and on the ordinary WCXB pages.
 *
 * Nothing leaves 127.0.0.1: the browser reader's guard resolves only bench.test (to a public-looking
 * address, so the guard applies as on the web), and its onward fetch and dial carry requests to
 * the bench's server alone (createLoopbackEgress); every other host a page names is refused.
 */
import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { gunzipSync } from 'node:zlib';
import { parseHTML } from 'linkedom';
import { looksLikeAppShell, readAppShellMarkers } from '../src/extraction/html/app-shell.js';
import { extractHtmlPage } from '../src/extraction/html/extract-html-page.js';
import { closeChromium, findChromium } from '../src/platform/browser/launch-chromium.js';
import { createBrowserReader } from '../src/providers/reader/browser/browser-reader.js';
import { warmChromium } from '../src/providers/reader/browser/shared-chromium.js';
import { createBuiltinReader } from '../src/providers/reader/builtin/builtin-reader.js';
import type { PageReader } from '../src/providers/spec/page-reader.js';
import { createLoopbackEgress } from '../test/helpers/loopback-egress.js';
import { median, type PageScore, scorePage, shingles, summarise } from './extraction-score.js';

export interface SlicePage {
  id: string;
  html: string;
  truth: string;
}

interface Timed {
  scores: PageScore[];
  times: number[];
}

/** Script elements but JSON-LD, whole, as they appear in the source. */
const scripts = /<script\b(?![^>]*application\/ld\+json)[^>]*>[\s\S]*?<\/script\s*>/gi;

/**
 * The page's head (without its scripts) and a script that writes its body into an empty root. The
 * body is cut from the source text as it is, so Chromium parses it as it would the page (a DOM
 * library's parse and serialisation would change pages it reads differently from a browser).
 */
export function toAppShell(page: SlicePage, fetched: boolean): { shell: string; data: string } {
  const source = page.html.replace(scripts, '');
  const head = /<head\b[^>]*>([\s\S]*?)<\/head\s*>/i.exec(source)?.[1] ?? '';
  const bodyStart = /<body\b[^>]*>/i.exec(source);
  const bodyEnd = source.toLowerCase().lastIndexOf('</body');
  const body = bodyStart
    ? source.slice(bodyStart.index + bodyStart[0].length, bodyEnd > bodyStart.index ? bodyEnd : undefined)
    : source;
  const data = JSON.stringify({ html: body }).replace(/</g, '\\u003c');
  const render = fetched
    ? `fetch('/data/${page.id}.json').then(function (r) { return r.json(); }).then(render);`
    : `render(${data});`;
  const shell = `<!doctype html><html><head>${head}</head><body>
<div id="root"></div><noscript>You need to enable JavaScript to run this app.</noscript>
<script>function render(data) { document.getElementById('root').innerHTML = data.html; }
${render}</script></body></html>`;
  return { shell, data };
}

function serve(pages: readonly SlicePage[]): Promise<Server> {
  const shells = new Map(pages.map((page, index) => [page.id, toAppShell(page, index % 2 === 1)]));
  const server = createServer((request, response) => {
    const match = /^\/(page|data)\/([^/.]+)(\.json)?$/.exec(request.url ?? '');
    const entry = match ? shells.get(match[2]!) : undefined;
    if (!entry) return void response.writeHead(404).end();
    const isData = match![1] === 'data';
    response.writeHead(200, { 'content-type': isData ? 'application/json' : 'text/html; charset=utf-8' });
    response.end(isData ? entry.data : entry.shell);
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)));
}

async function readAll(reader: PageReader, base: string, pages: readonly SlicePage[]): Promise<Timed> {
  const run: Timed = { scores: [], times: [] };
  for (const page of pages) {
    const started = performance.now();
    const text = await reader.read(`${base}/page/${page.id}`).then(
      (read) => read.text,
      () => '',
    );
    run.times.push(performance.now() - started);
    run.scores.push(scorePage({ extracted: text, truth: shingles(page.truth), with: [], without: [] }));
  }
  return run;
}

/** A WCXB ground-truth line, as much of it as the slice needs. */
export interface SliceRecord {
  id: string;
  page_type: string;
  main_content: string;
}

/**
 * Prints the slice's table for `pages` article and documentation pages taken evenly from
 * `records`, and auto mode's fallbacks on every page of `records` (its false alarms).
 */
export async function runClientRenderedSlice(options: {
  directory: string;
  records: readonly SliceRecord[];
  pages: number;
}): Promise<void> {
  const load = (record: SliceRecord): SlicePage => ({
    id: record.id,
    html: gunzipSync(readFileSync(join(options.directory, 'html', `${record.id}.html.gz`))).toString('utf8'),
    truth: record.main_content,
  });
  const kinds = options.records.filter((record) => ['article', 'documentation'].includes(record.page_type));
  const step = Math.max(1, Math.floor(kinds.length / options.pages));
  const pages = kinds
    .filter((_, index) => index % step === 0)
    .slice(0, options.pages)
    .map(load);
  await runSlice(pages, options.records.map(load));
}

async function runSlice(pages: readonly SlicePage[], ordinary: readonly SlicePage[]): Promise<void> {
  const chromium = findChromium(undefined);
  if (!chromium.available) return void console.log(`\nclient-rendered slice skipped: ${chromium.reason}`);
  const server = await serve(pages);
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const egress = createLoopbackEgress({
    addresses: { 'bench.test': ['93.184.216.34'] },
    webHosts: ['bench.test'],
    httpBase: base,
    tunnelPort: 9, // no tunnel is ever dialled: the only allowed host is plain http
  });
  const browser = createBrowserReader({
    chromium,
    lookup: egress.lookup,
    proxyFetch: egress.fetch,
    dial: egress.dial,
  });
  try {
    const launchStarted = performance.now();
    await warmChromium(chromium);
    const launchMs = performance.now() - launchStarted;
    const cpuBefore = process.cpuUsage();
    const rendered = await readAll(browser, 'http://bench.test', pages);
    const cpu = process.cpuUsage(cpuBefore);
    const builtin = await readAll(createBuiltinReader({ allowPrivateNetwork: true }), base, pages);
    const original = pages.map((page) =>
      scorePage({
        extracted: extractHtmlPage(page.html, 'https://bench.test/').text,
        truth: shingles(page.truth),
        with: [],
        without: [],
      }),
    );
    printSlice({ pages, builtin, rendered, original, launchMs, cpuMs: (cpu.user + cpu.system) / 1000 });
    printDetection(pages, ordinary);
  } finally {
    await closeChromium();
    server.close();
  }
}

function printSlice(input: {
  pages: readonly SlicePage[];
  builtin: Timed;
  rendered: Timed;
  original: PageScore[];
  launchMs: number;
  cpuMs: number;
}): void {
  const row = (name: string, scores: PageScore[], times?: number[]) => {
    const summary = summarise(scores);
    const sorted = [...(times ?? [])].sort((a, b) => a - b);
    const p90 = sorted[Math.floor(sorted.length * 0.9)] ?? 0;
    const ms = times ? `${median(times).toFixed(0)} | ${p90.toFixed(0)}` : '– | –';
    return `| ${name} | ${summary.pages} | ${summary.precision.toFixed(3)} | ${summary.recall.toFixed(3)} | ${summary.f1.toFixed(3)} | ${ms} |`;
  };
  console.log(
    `\nclient-rendered slice: ${input.pages.length} WCXB article and documentation pages as app shells`,
  );
  console.log('| reader | pages | P | R | F1 | median ms/page | p90 ms/page |');
  console.log('| --- | --- | --- | --- | --- | --- | --- |');
  console.log(row('builtin (the shell as sent)', input.builtin.scores, input.builtin.times));
  console.log(row('browser (Chromium runs the script)', input.rendered.scores, input.rendered.times));
  console.log(row('reference: extraction of the original page', input.original));
  console.log(
    `Chromium launch ${input.launchMs.toFixed(0)} ms (once per process, not in ms/page); this process's CPU ${(input.cpuMs / input.pages.length).toFixed(0)} ms/page for the browser reads (Chromium's own not counted)`,
  );
}

/**
 * auto starts the browser only for pages the builtin reader marks as app shells. Only pages whose
 * markers allow it (scripts, little body text, a mount point or noscript) are extracted to decide.
 */
function printDetection(shells: readonly SlicePage[], ordinary: readonly SlicePage[]): void {
  const marked = (html: string) => {
    const markers = readAppShellMarkers(parseHTML(html).document as unknown as Document);
    if (!looksLikeAppShell(markers, '')) return false;
    return extractHtmlPage(html, 'https://bench.test/').emptyShell === true;
  };
  const shellsMarked = shells.filter((page) => marked(toAppShell(page, false).shell)).length;
  const ordinaryMarked = ordinary.filter((page) => marked(page.html));
  console.log(
    `auto's fallback to the browser: ${shellsMarked}/${shells.length} shells; ${ordinaryMarked.length}/${ordinary.length} ordinary WCXB pages (${((100 * ordinaryMarked.length) / Math.max(1, ordinary.length)).toFixed(1)}%)${ordinaryMarked.length ? `: ids ${ordinaryMarked.map((page) => page.id).join(', ')}` : ''}`,
  );
}
