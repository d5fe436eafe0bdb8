// What both sections of bench:server share: a fake OpenAI-compatible LLM with a fixed latency, a fake
// SearXNG and a one-page local web on 127.0.0.1, the built CLI's `serve` in its own process, and
// readings of that process from Linux's /proc.
import { spawn } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gunzipSync } from 'node:zlib';
import { startFakeOpenAi } from '../src/testing/fake-openai-server.ts';
import { startFakeSearxng } from '../test/helpers/fake-searxng-server.ts';
import { startFakeWeb } from '../test/helpers/fake-web-server.ts';
import { evalRoot } from './eval-root.mjs';

// BENCH_CLI: another build's CLI (bench/server-compare.mjs runs this bench against two builds).
const cliPath = process.env.BENCH_CLI
  ? resolve(process.env.BENCH_CLI)
  : fileURLToPath(new URL('../dist/cli/main.js', import.meta.url));
const page = `<html><head><title>91st Academy Awards</title></head><body><article><h1>91st Academy Awards</h1>
<p>The 91st Academy Awards ceremony honored the best films of 2018 and took place on February 24, 2019.</p>
<p>Green Book won Best Picture. The film was directed by Peter Farrelly.</p>
<p>Other nominees included Roma, The Favourite and Black Panther.</p></article></body></html>`;
const quote = 'Green Book won Best Picture. The film was directed by Peter Farrelly.';

/** A deep search here is search, query rewrite, visit, answer, criteria, evaluation: 6 LLM calls. */
export const llmCallsPerRun = 6;

/**
 * The fakes. Every question carries `(bench question <id>)`; the agent's replies for one id go
 * search, visit, answer. A research-mode topic's plan has two sections whose questions carry ids of
 * their own, so each section's agent follows the same script. A `hold-` question never gets an answer.
 */
export async function startBenchWorld({ latencyMs }) {
  const pages = await benchPages();
  const web = await startFakeWeb({ pages: pages.byPath });
  const pageUrl = (query) => `${web.url}${pages.pathOf(query)}?${encodeURIComponent(query)}`;
  const searxng = await startFakeSearxng({
    results: (query) => [
      { url: pageUrl(query), title: '91st Academy Awards', content: 'Green Book won Best Picture.' },
    ],
  });
  const agentCalls = new Map();
  /** Each LLM call as it arrived: the question it is for and when (server-stages.mjs reads them). */
  const calls = [];
  const respond = (request) => {
    // The longest id in the prompt: a section's prompt may also hold its topic's shorter one.
    const ids = [...request.prompt.matchAll(/bench question ([\w-]+)/g)].map((match) => match[1]);
    const id = ids.sort((a, b) => b.length - a.length)[0] ?? 'unknown';
    calls.push({ id, at: performance.now() });
    const reply = (object) => ({
      content: JSON.stringify(object),
      usage: { prompt_tokens: 1500, completion_tokens: 80 },
      // A `hold-` question's call lasts until its run is cancelled: the queue check needs full slots.
      delayMs: id.startsWith('hold-') ? 600_000 : latencyMs,
    });
    const research = researchReply(request.schemaName, id);
    if (research) return reply(research);
    if (request.schemaName === 'evaluation_criteria')
      return reply({
        think: 'simple',
        needsFreshness: false,
        needsPlurality: false,
        needsCompleteness: false,
        needsStrict: false,
      });
    if (request.schemaName?.startsWith('evaluate_'))
      return reply({ think: 'fine', pass: true, improvement: '' });
    // The rewriter (on by default) keeps the agent's query.
    if (request.schemaName === 'query_rewrite')
      return reply({
        think: 'Already a keyword query.',
        queries: [{ query: `Best Picture ${id}`, timeRange: 'none', language: '' }],
      });
    const count = (agentCalls.get(id) ?? 0) + 1;
    agentCalls.set(id, count);
    const query = `Best Picture ${id}`;
    const url = pageUrl(query);
    if (count === 1) return reply({ think: 'Search first.', action: 'search', search: { queries: [query] } });
    if (count === 2) return reply({ think: 'Read it.', action: 'visit', visit: { targets: [url] } });
    agentCalls.delete(id);
    return reply({
      think: 'Found it.',
      action: 'answer',
      answer: { text: 'Peter Farrelly[^1].', references: [{ url, quote: pages.quoteOf(query) }] },
    });
  };
  const llm = await startFakeOpenAi({ respond });
  return {
    llm,
    searxng,
    web,
    calls,
    close: () => Promise.all([llm.close(), searxng.close(), web.close()]),
  };
}

/**
 * The page every question reads: the small article above, or with BENCH_REAL_PAGES=N one of the
 * first N real pages of the WCXB dev set (../shared/eval/extraction/wcxb-dev/, every k-th page by
 * name) that have a sentence to quote, chosen by the question's query (the URL's path names it), so
 * the extraction processes parse what users' reads give them. The answer quotes that sentence of the
 * page's text as our extractor gives it (read here once, at the start), so its quote is found and
 * the run makes the same 6 LLM calls. The same query gets the same page in every run and every
 * build compared.
 */
async function benchPages() {
  const count = Number(process.env.BENCH_REAL_PAGES ?? 0);
  if (!count) return { byPath: { '/oscars': { html: page } }, pathOf: () => '/oscars', quoteOf: () => quote };
  const { fetchedToPage, loadParser } = await import('../src/extraction/fetched-to-page.ts');
  await loadParser('html');
  const folder = resolve(evalRoot, 'extraction/wcxb-dev/html');
  const names = readdirSync(folder)
    .filter((name) => name.endsWith('.html.gz'))
    .sort();
  const step = Math.max(1, Math.floor(names.length / count));
  const real = [];
  for (const name of names.filter((_, index) => index % step === 0).slice(0, count)) {
    const bytes = new Uint8Array(gunzipSync(readFileSync(resolve(folder, name))));
    const url = `https://bench.example/${name}`;
    const { page: read } = await fetchedToPage({
      requestedUrl: url,
      providerId: 'bench',
      fetched: { url, status: 200, contentType: 'text/html', bytes, truncated: false },
    });
    // A sentence of prose: 8 to 40 words, ending as a sentence does.
    const sentence = read.text
      .split(/(?<=[.!?])\s+/)
      .map((text) => text.trim())
      .find((text) => {
        const words = text.split(/\s+/).length;
        return /[.!?]$/.test(text) && words >= 8 && words <= 40;
      });
    if (sentence) real.push({ served: { body: bytes, contentType: 'text/html' }, quote: sentence });
  }
  if (process.env.BENCH_DEBUG) console.log(`${real.length} real pages with a sentence to quote`);
  const indexOf = (query) => {
    let hash = 0;
    for (const char of query) hash = (hash * 31 + char.charCodeAt(0)) >>> 0;
    return hash % real.length;
  };
  return {
    byPath: Object.fromEntries(real.map((entry, index) => [`/oscars/${index}`, entry.served])),
    pathOf: (query) => `/oscars/${indexOf(query)}`,
    quoteOf: (query) => real[indexOf(query)].quote,
  };
}

/** Research mode's own calls (plan, section writing, coherence, fact-check, review, follow-ups). */
function researchReply(schemaName, id) {
  const sentence = 'Green Book won Best Picture in 2019; it was directed by Peter Farrelly.[^1]';
  switch (schemaName) {
    case 'research_plan':
      return {
        title: `Best Picture 2019 (${id})`,
        sections: ['Director', 'Film'].map((heading, index) => ({
          heading,
          questions: [`Who directed the 2019 Best Picture winner? (bench question ${id}-${index + 1})`],
        })),
        dataPoints: [],
      };
    case 'research_section':
      return { markdown: sentence };
    case 'research_coherence':
      return { summary: sentence, sections: [] };
    case 'research_contradictions':
      return { contradictions: [] };
    case 'research_claims':
      return { claims: [{ section: 's1', sentence }] };
    case 'research_claim_check':
      return { verdicts: [{ claim: 1, supported: true }] };
    case 'research_review':
      return { approved: true, feedback: [] };
    case 'research_follow_ups':
      return { questions: ['Who else was nominated?', 'Who won Best Director?', 'Where was it held?'] };
    default:
      return undefined;
  }
}

/** `deepsearch serve` (the built CLI) in its own process; resolves once it listens. */
export function startServer({ llmUrl, searxngUrl, args = [], env = {}, nodeFlags = [] }) {
  const child = spawn(process.execPath, [...nodeFlags, cliPath, 'serve', '--port', '0', ...args], {
    env: {
      PATH: process.env.PATH ?? '',
      DEEPSEARCH_LLM_BASE_URL: `${llmUrl}/v1`,
      DEEPSEARCH_LLM_MODEL: 'fake-model',
      DEEPSEARCH_LLM_MAX_RETRIES: '0',
      DEEPSEARCH_SEARXNG_URL: searxngUrl,
      DEEPSEARCH_ALLOW_PRIVATE_NETWORK: 'true',
      ...env,
    },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  return new Promise((resolve, reject) => {
    let stderr = '';
    child.stderr.on('data', (chunk) => {
      stderr += chunk;
      const match = /at (http:\/\/[^\s]+)\/v1/.exec(stderr);
      if (match) resolve({ child, url: match[1], stderr: () => stderr });
    });
    child.once('exit', () => reject(new Error(`server exited: ${stderr}`)));
  });
}

export async function stopServer(child) {
  child.kill('SIGTERM');
  if (child.exitCode === null) await new Promise((resolve) => child.once('exit', resolve));
}

/** CPU time (user + system) a process used so far, in ms, from Linux's /proc (clock ticks of 10 ms). */
export function cpuMs(pid) {
  return statCpuMs(`/proc/${pid}/stat`);
}

/** User + system CPU in ms from a /proc stat file (a process's or one of its threads'). */
function statCpuMs(path) {
  const fields = readFileSync(path, 'utf8').split(') ')[1].split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

/** CPU time of each thread of a process, in ms, by thread id (`main` for the process's own). */
export function threadCpuMs(pid) {
  const threads = new Map();
  for (const tid of readdirSync(`/proc/${pid}/task`)) {
    try {
      threads.set(tid === String(pid) ? 'main' : tid, statCpuMs(`/proc/${pid}/task/${tid}/stat`));
    } catch {
      // ended between the listing and the reading
    }
  }
  return threads;
}

/**
 * CPU time of a process and every process under it, in ms: its own, that of its children still
 * alive (extraction processes, Chromium) read from their /proc entries, and that of the children
 * it has reaped (Linux's cutime/cstime), so a child replaced during a burst still counts.
 */
export function treeCpuMs(pid) {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  const own = (Number(fields[11]) + Number(fields[12]) + Number(fields[13]) + Number(fields[14])) * 10;
  return own + childPids(pid).reduce((sum, child) => sum + safeTreeCpuMs(child), 0);
}

function safeTreeCpuMs(pid) {
  try {
    return treeCpuMs(pid);
  } catch {
    return 0; // exited between the listing and the reading; its time is in the parent's cutime now
  }
}

function childPids(pid) {
  try {
    return readdirSync(`/proc/${pid}/task`).flatMap((task) =>
      readFileSync(`/proc/${pid}/task/${task}/children`, 'utf8').split(' ').filter(Boolean).map(Number),
    );
  } catch {
    return [];
  }
}

/** Resident set size of a process now (VmRSS) or at its peak (VmHWM), in MB, from Linux's /proc. */
export function rssMb(pid, which = 'VmRSS') {
  const line = readFileSync(`/proc/${pid}/status`, 'utf8').match(new RegExp(`${which}:\\s+(\\d+) kB`));
  return line ? Number(line[1]) / 1024 : Number.NaN;
}

export const percentile = (values, p) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? Number.NaN;
};

export const ms = (value) => `${Math.round(value)} ms`;
