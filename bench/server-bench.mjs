// npm run bench:server — N concurrent streaming chat completions against `deepsearch serve` (the
// built CLI, in its own process) backed by a fake OpenAI-compatible LLM with a fixed latency, a fake
// SearXNG and a one-page local web, all on 127.0.0.1. Each run: search, query rewrite, visit, answer,
// criteria, evaluation = 6 LLM calls, so a stream cannot take less than 6 × latency; the rest is overhead.
// CPU/stream is the server process's own CPU time per stream (the agent's work included), which
// does not depend on what else the machine is doing; the times do.
// Options: BENCH_SIZES=50,100,200 BENCH_LATENCY_MS=500 BENCH_NODE_FLAGS=--cpu-prof
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { startFakeOpenAi } from '../dist/testing/fake-openai-server.js';
import { startFakeSearxng } from '../dist/testing/fake-searxng-server.js';
import { startFakeWeb } from '../dist/testing/fake-web-server.js';

const sizes = (process.env.BENCH_SIZES ?? '50,100,200').split(',').map(Number);
const latencyMs = Number(process.env.BENCH_LATENCY_MS ?? 500);
const llmCallsPerRun = 6;
const nodeFlags = (process.env.BENCH_NODE_FLAGS ?? '').split(' ').filter(Boolean);
const cliPath = fileURLToPath(new URL('../dist/cli/main.js', import.meta.url));
const page = `<html><head><title>91st Academy Awards</title></head><body><article><h1>91st Academy Awards</h1>
<p>The 91st Academy Awards ceremony honored the best films of 2018 and took place on February 24, 2019.</p>
<p>Green Book won Best Picture. The film was directed by Peter Farrelly.</p>
<p>Other nominees included Roma, The Favourite and Black Panther.</p></article></body></html>`;

const web = await startFakeWeb({ pages: { '/oscars': { html: page } } });
const searxng = await startFakeSearxng({
  results: (query) => [
    {
      url: `${web.url}/oscars?${encodeURIComponent(query)}`,
      title: '91st Academy Awards',
      content: 'Green Book won Best Picture.',
    },
  ],
});
const agentCalls = new Map();
const reply = (object) => ({
  content: JSON.stringify(object),
  usage: { prompt_tokens: 1500, completion_tokens: 80 },
  delayMs: latencyMs,
});
const llm = await startFakeOpenAi({ respond: (request) => scriptedReply(request) });

function scriptedReply(request) {
  const id = /bench question (\d+-\d+)/.exec(request.prompt)?.[1] ?? 'unknown';
  if (request.schemaName === 'evaluation_criteria') {
    return reply({
      think: 'simple',
      needsFreshness: false,
      needsPlurality: false,
      needsCompleteness: false,
      needsStrict: false,
    });
  }
  if (request.schemaName?.startsWith('evaluate_'))
    return reply({ think: 'fine', pass: true, improvement: '' });
  // The rewriter (on by default) keeps the agent's query.
  if (request.schemaName === 'query_rewrite') {
    return reply({
      think: 'Already a keyword query.',
      queries: [{ query: `Best Picture ${id}`, timeRange: 'none', language: '' }],
    });
  }
  const count = (agentCalls.get(id) ?? 0) + 1;
  agentCalls.set(id, count);
  const url = `${web.url}/oscars?${encodeURIComponent(`Best Picture ${id}`)}`;
  if (count === 1)
    return reply({ think: 'Search first.', action: 'search', search: { queries: [`Best Picture ${id}`] } });
  if (count === 2) return reply({ think: 'Read it.', action: 'visit', visit: { targets: [url] } });
  const quote = 'Green Book won Best Picture. The film was directed by Peter Farrelly.';
  return reply({
    think: 'Found it.',
    action: 'answer',
    answer: { text: 'Peter Farrelly[^1].', references: [{ url, quote }] },
  });
}

function startServer() {
  const child = spawn(
    process.execPath,
    [...nodeFlags, cliPath, 'serve', '--port', '0', '--max-concurrent', '1000', '--max-queue', '0'],
    {
      env: {
        PATH: process.env.PATH ?? '',
        DEEPSEARCH_LLM_BASE_URL: `${llm.url}/v1`,
        DEEPSEARCH_LLM_MODEL: 'fake-model',
        DEEPSEARCH_LLM_MAX_RETRIES: '0',
        DEEPSEARCH_SEARXNG_URL: searxng.url,
        DEEPSEARCH_ALLOW_PRIVATE_NETWORK: 'true',
      },
      stdio: ['ignore', 'ignore', 'pipe'],
    },
  );
  return new Promise((resolve, reject) => {
    let stderr = '';
    child.stderr.on('data', (chunk) => {
      stderr += chunk;
      const match = /at (http:\/\/[^\s]+)\/v1/.exec(stderr);
      if (match) resolve({ child, url: match[1] });
    });
    child.once('exit', () => reject(new Error(`server exited: ${stderr}`)));
  });
}

/** CPU time (user + system) a process used so far, in ms, from Linux's /proc (clock ticks of 10 ms). */
function cpuMs(pid) {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

/** Peak resident set size of a process, from Linux's /proc (VmHWM). */
function peakRssMb(pid) {
  const line = readFileSync(`/proc/${pid}/status`, 'utf8').match(/VmHWM:\s+(\d+) kB/);
  return line ? Number(line[1]) / 1024 : Number.NaN;
}

async function oneStream(url, id) {
  const started = performance.now();
  const response = await fetch(`${url}/v1/chat/completions`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      model: 'deepsearch',
      stream: true,
      stream_options: { include_usage: true },
      messages: [
        { role: 'user', content: `Who directed the Best Picture winner of 2019? (bench question ${id})` },
      ],
    }),
  });
  if (response.status !== 200) throw new Error(`HTTP ${response.status}`);
  let firstChunkMs;
  let text = '';
  const decoder = new TextDecoder();
  for await (const bytes of response.body) {
    firstChunkMs ??= performance.now() - started;
    text += decoder.decode(bytes, { stream: true });
    if (process.env.BENCH_DEBUG)
      console.log(Math.round(performance.now() - started), decoder.decode(bytes).slice(0, 160));
  }
  if (
    !text.trimEnd().endsWith('data: [DONE]') ||
    text.includes('"error"') ||
    !text.includes('Peter Farrelly')
  ) {
    throw new Error(`bad stream: ${text.slice(-300)}`);
  }
  return { firstChunkMs, totalMs: performance.now() - started };
}

const percentile = (values, p) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? Number.NaN;
};

console.log(
  `fake LLM latency ${latencyMs} ms × ${llmCallsPerRun} calls per run = ${latencyMs * llmCallsPerRun} ms floor per stream\n`,
);
console.log(
  '   N  completed  errors  ttfc p50  ttfc p99  total p50  total p99  overhead p50  overhead p99  peak RSS  RSS/stream  CPU/stream    wall',
);
for (const size of sizes) {
  const { child, url } = await startServer();
  // One request first, so the numbers are those of a warm server, not of module loading and JIT.
  await oneStream(url, `${size}-warmup`);
  const cpuBefore = cpuMs(child.pid);
  const burstStarted = performance.now();
  const outcomes = await Promise.allSettled(
    Array.from({ length: size }, (_, index) => oneStream(url, `${size}-${index}`)),
  );
  const rss = peakRssMb(child.pid);
  const cpuPerStream = (cpuMs(child.pid) - cpuBefore) / size;
  const wallSeconds = (performance.now() - burstStarted) / 1000;
  child.kill('SIGTERM');
  await new Promise((resolve) => child.once('exit', resolve));
  const done = outcomes.filter((outcome) => outcome.status === 'fulfilled').map((outcome) => outcome.value);
  const errors = outcomes.filter((outcome) => outcome.status === 'rejected');
  const floor = latencyMs * llmCallsPerRun;
  const ms = (value) => `${Math.round(value)} ms`.padStart(9);
  console.log(
    [
      String(size).padStart(4),
      String(done.length).padStart(10),
      String(errors.length).padStart(7),
      ms(
        percentile(
          done.map((run) => run.firstChunkMs),
          50,
        ),
      ),
      ms(
        percentile(
          done.map((run) => run.firstChunkMs),
          99,
        ),
      ),
      ms(
        percentile(
          done.map((run) => run.totalMs),
          50,
        ),
      ).padStart(10),
      ms(
        percentile(
          done.map((run) => run.totalMs),
          99,
        ),
      ).padStart(10),
      ms(
        percentile(
          done.map((run) => run.totalMs - floor),
          50,
        ),
      ).padStart(13),
      ms(
        percentile(
          done.map((run) => run.totalMs - floor),
          99,
        ),
      ).padStart(13),
      `${rss.toFixed(0)} MB`.padStart(9),
      `${(rss / size).toFixed(2)} MB`.padStart(11),
      ms(cpuPerStream).padStart(11),
      `${wallSeconds.toFixed(1)} s`.padStart(6),
    ].join(' '),
  );
  if (errors.length > 0) console.log(`      first error: ${errors[0].reason?.message ?? errors[0].reason}`);
}
if (process.env.BENCH_DEBUG)
  console.log(
    llm.requests.map((request) => `${request.schemaName} ${Math.round(request.timing ?? 0)}`).join('\n'),
  );
await Promise.all([llm.close(), searxng.close(), web.close()]);
