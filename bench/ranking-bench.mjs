// Speed of the retrieval hot paths: ranking 10,000 URL candidates (lexical relevance, no reranker
// call) and selecting snippets from a 1,000,000-character page. Median of several runs.
// Run: npm run bench:ranking
import { existsSync, readFileSync } from 'node:fs';
import os from 'node:os';
import { resolve } from 'node:path';
import { rankUrls } from '../dist/retrieval/rank-urls.js';
import { selectSnippets } from '../dist/retrieval/select-snippets.js';

const runs = 15;
const targetMs = 50;

function seeded(seed) {
  let state = seed >>> 0;
  return () => {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
    return state / 2 ** 32;
  };
}

function loadPages() {
  const path = resolve('../shared/eval/snippets/leval-natural-questions.jsonl');
  if (!existsSync(path)) return undefined;
  return readFileSync(path, 'utf8')
    .split('\n')
    .filter((line) => line.trim())
    .map((line) => JSON.parse(line).input.replace(/<[^>]+>/g, ' '));
}

/** Words of real pages when the eval data is there (realistic term frequencies), else a synthetic vocabulary. */
function vocabulary(pages) {
  if (pages)
    return pages
      .join(' ')
      .split(/\s+/)
      .filter((word) => /^[A-Za-z][a-z]+$/.test(word));
  const random = seeded(3);
  return Array.from({ length: 50_000 }, () => Math.floor(random() ** 3 * 20_000).toString(36));
}

function makeCandidates(count, words) {
  const random = seeded(42);
  // Consecutive words from a random place: titles and snippets read like text, not word salad.
  const phrase = (length) => {
    const start = Math.floor(random() * (words.length - length));
    return words.slice(start, start + length).join(' ');
  };
  const pick = () => words[Math.floor(random() * words.length)].toLowerCase();
  // A run meets a few hundred hosts, some of them often (Zipf-like).
  const hosts = Array.from({ length: 400 }, (_, index) => `${pick()}${index}.example`);
  return Array.from({ length: count }, (_, index) => {
    const host = hosts[Math.floor(random() ** 2 * hosts.length)];
    const depth = 1 + Math.floor(random() * 4);
    const path = Array.from({ length: depth }, pick).join('/');
    return {
      url: `https://${host}/${path}/${index}`,
      host,
      title: phrase(8),
      snippet: phrase(30),
      anchors: random() < 0.3 ? [phrase(3)] : [],
      hits: 1 + Math.floor(random() * 3),
      publishedAt: new Date(Date.UTC(2015 + Math.floor(random() * 11), 0, 1)).toISOString(),
    };
  });
}

function makePage(chars, pages, words) {
  let text = '';
  if (pages) for (let index = 0; text.length < chars; index++) text += `${pages[index % pages.length]}\n`;
  else
    while (text.length < chars)
      text += `${words.slice(text.length % 1000, (text.length % 1000) + 15).join(' ')}. `;
  return { text: text.slice(0, chars), source: pages ? 'L-Eval pages' : 'synthetic words' };
}

/** Wall time and this process's CPU time: on a shared, loaded machine the second is the fairer one. */
function median(operation, prepare = () => {}) {
  prepare();
  operation(); // warm-up: JIT and lazy initialisation are not what is measured
  const wall = [];
  const cpu = [];
  for (let run = 0; run < runs; run++) {
    prepare();
    const started = performance.now();
    const usage = process.cpuUsage();
    operation();
    const spent = process.cpuUsage(usage);
    wall.push(performance.now() - started);
    cpu.push((spent.user + spent.system) / 1000);
  }
  const middle = (values) => values.sort((a, b) => a - b)[Math.floor(values.length / 2)];
  return { median: middle(wall), min: Math.min(...wall), cpu: middle(cpu) };
}

const pages = loadPages();
const words = vocabulary(pages);
const candidates = makeCandidates(10_000, words);
const rankOptions = {
  question: 'who directed the film that won the best picture award the year the series premiered',
  freshnessNow: new Date('2026-11-21T00:00:00Z'),
  hosts: { boost: ['site1.example'], bad: ['site2.example'] },
  limit: 30,
};
// The agent ranks the same URL records at every step, and ranking caches each record's tokens:
// the repeated ranking is the common case, the first ranking of new records the cold one.
const rankTimes = median(() => rankUrls(candidates, rankOptions));
let fresh = [];
const coldTimes = median(
  () => rankUrls(fresh, rankOptions),
  () => {
    fresh = candidates.map((candidate) => ({ ...candidate }));
  },
);
// A search step adds a few hundred URLs to those the agent already has: the per-step case.
let stepMix = [];
const stepTimes = median(
  () => rankUrls(stepMix, rankOptions),
  () => {
    stepMix = candidates.map((candidate, index) => (index % 50 === 0 ? { ...candidate } : candidate));
  },
);
const page = makePage(1_000_000, pages, words);
const snippetTimes = median(() =>
  selectSnippets('when did the second season of the series premiere', page.text, { budgetChars: 4000 }),
);
const row = (name, times) => ({
  task: name,
  medianMs: times.median.toFixed(2),
  minMs: times.min.toFixed(2),
  cpuMedianMs: times.cpu.toFixed(2),
  target: `< ${targetMs} ms ${times.median < targetMs ? 'ok' : 'SLOW'}`,
});
console.log(
  `median of ${runs} runs after a warm-up; load average ${os.loadavg()[0].toFixed(1)} on ${os.cpus().length} cores`,
);
console.table([
  row('rank 10,000 URLs (lexical relevance)', rankTimes),
  row('rank 10,000 URLs, 200 of them new (one search step)', stepTimes),
  row('rank 10,000 new URL records (nothing cached)', coldTimes),
  row(`snippets from a ${page.text.length.toLocaleString('en')}-char page (${page.source})`, snippetTimes),
]);
