// npm run bench:server — two sections against `deepsearch serve` (the built CLI, in its own process)
// backed by a fake OpenAI-compatible LLM with a fixed latency, a fake SearXNG and a one-page local
// web, all on 127.0.0.1 (bench/server-bench-world.mjs).
// 1. N concurrent streaming chat completions. Each run: search, query rewrite, visit, answer,
//    criteria, evaluation = 6 LLM calls, so a stream cannot take less than 6 × latency; the rest is
//    overhead. CPU/stream is the server process's own CPU time per stream (the agent's work
//    included), "+children" that of the server and its extraction processes together; neither
//    depends much on what else the machine is doing; the times do. A second table gives the
//    extraction pool's wait for a process, its round trip and the bytes sent each way per read.
// 2. Async jobs (bench/server-async-bench.mjs): POST /v1/research and each job's SSE events.
//    A third gives the server's CPU per stream by thread: the main thread (HTTP, streams, the
//    recording's writes), the run thread (server.runThreads: the agent's work; with
//    DEEPSEARCH_RUN_THREADS=0 the runs are in the main thread, as before), and V8's GC and
//    compiler threads with the rest. A last table per N splits a stream's overhead by stage, from
//    when the fake LLM saw each call (bench/server-stages.mjs): request to first call, the
//    search, the read, and so on, p10, p50 and p90.
// Options: BENCH_WARMUP=N (N streams at once before each burst, besides the one warm-up request:
// a server past its JIT), BENCH_SIZES=50,100,200 (empty: skip 1) BENCH_LATENCY_MS=500 BENCH_NODE_FLAGS=--cpu-prof,
// BENCH_OTLP=1 (trace to a receiver on 127.0.0.1), BENCH_REAL_PAGES=N (each question reads one of
// N real pages of the WCXB dev set instead of the small article: bench/server-bench-world.mjs),
// any DEEPSEARCH_* setting for the server,
// and the async section's (see its file; BENCH_ASYNC_JOBS=0 skips it).
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { startFakeOtlpReceiver } from '../test/helpers/fake-otlp-receiver.ts';
import { runAsyncBench } from './server-async-bench.mjs';
import {
  cpuMs,
  llmCallsPerRun,
  percentile,
  rssMb,
  startBenchWorld,
  startServer,
  stopServer,
  threadCpuMs,
  treeCpuMs,
} from './server-bench-world.mjs';
import { stageLines } from './server-stages.mjs';

const sizes = (process.env.BENCH_SIZES ?? '50,100,200').split(',').filter(Boolean).map(Number);
const latencyMs = Number(process.env.BENCH_LATENCY_MS ?? 500);
const nodeFlags = (process.env.BENCH_NODE_FLAGS ?? '').split(' ').filter(Boolean);
const world = await startBenchWorld({ latencyMs });
// BENCH_OTLP=1: the server traces its runs (OpenTelemetry) to a receiver on 127.0.0.1, to measure
// what tracing costs per stream.
const otlp = process.env.BENCH_OTLP === '1' ? await startFakeOtlpReceiver() : undefined;
// Runs are recorded (as a real server does) in a store of the bench's own, never the user's.
const dataDir = mkdtempSync(join(tmpdir(), 'deepsearch-bench-server-'));
/**
 * What the bench decides for the server, never taken from this process's environment: the LLM,
 * the search engine, the network guard, and every file, folder, address and key (the user's own
 * cache or run store would change what is measured).
 */
const benchOwned = (name) =>
  /_(DIR|DIRS|FILE|FILES|URL|KEY|PROVIDER|MODEL|ROOTS)$/.test(name) ||
  ['DEEPSEARCH_LLM_MAX_RETRIES', 'DEEPSEARCH_ALLOW_PRIVATE_NETWORK', 'DEEPSEARCH_CONFIG'].includes(name);
const serverOptions = (name, args) => ({
  llmUrl: world.llm.url,
  searxngUrl: world.searxng.url,
  nodeFlags,
  args,
  env: {
    // Settings for the server from this process's environment (DEEPSEARCH_RUN_THREADS=0: runs in
    // the server's own thread, as before run threads); never its LLM, search or store, the bench's.
    ...Object.fromEntries(
      Object.entries(process.env).filter(([name]) => name.startsWith('DEEPSEARCH_') && !benchOwned(name)),
    ),
    XDG_DATA_HOME: dataDir,
    DEEPSEARCH_RUNS_FILE: join(dataDir, `${name}.sqlite`),
    ...(otlp ? { OTEL_EXPORTER_OTLP_ENDPOINT: otlp.url } : {}),
  },
});

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
  const ended = performance.now();
  streamTimes.set(id, { started, ended });
  return { firstChunkMs, totalMs: ended - started };
}

/** When each stream of the current burst started and ended, by question id (server-stages.mjs). */
const streamTimes = new Map();

// The machine may be shared: the times depend on what else runs, so each burst says the load it met.
const load = () => loadavg()[0].toFixed(1);
if (sizes.length > 0)
  console.log(
    `fake LLM latency ${latencyMs} ms × ${llmCallsPerRun} calls per run = ${latencyMs * llmCallsPerRun} ms floor per stream; ${cpus().length} cores, load average ${load()} before the first burst\n`,
  );
if (sizes.length > 0)
  console.log(
    '   N  completed  errors  ttfc p50  ttfc p99  total p50  total p99  overhead p50  overhead p99  peak RSS  RSS/stream  CPU/stream  +children    wall  load  bench CPU',
  );
const extractionLines = [];
const stageTables = [];
/** Each burst's numbers, written as JSON to BENCH_JSON when it is set (bench/server-compare.mjs reads them). */
const summaries = [];
/**
 * The server's CPU per stream by thread: its main thread (HTTP, the streams, the recording's
 * writes), the busiest other one (the run thread, where runs are: server.runThreads), and the rest
 * (V8's garbage collector and compiler threads, libuv's pool, further run threads).
 */
function threadSplit(size, before, after) {
  const used = [...after].map(([tid, ms]) => [tid, (ms - (before.get(tid) ?? 0)) / size]);
  const main = used.find(([tid]) => tid === 'main')?.[1] ?? 0;
  const others = used
    .filter(([tid]) => tid !== 'main')
    .map(([, ms]) => ms)
    .sort((a, b) => b - a);
  const rest = others.slice(1).reduce((sum, ms) => sum + ms, 0);
  return { mainMs: main, busiestOtherMs: others[0] ?? 0, restMs: rest };
}
function threadLine(size, split) {
  return [
    String(size).padStart(4),
    `${split.mainMs.toFixed(1)} ms`.padStart(12),
    `${split.busiestOtherMs.toFixed(1)} ms`.padStart(15),
    `${split.restMs.toFixed(1)} ms`.padStart(19),
  ].join(' ');
}
/** The extraction pool's numbers for one burst (warm-up included), as the server wrote them at exit. */
function extractionLine(size, statsFile) {
  let stats;
  try {
    stats = JSON.parse(readFileSync(statsFile, 'utf8'));
  } catch {
    return `${String(size).padStart(4)}  (no extraction numbers: the server did not write them)`;
  }
  const ms = (values, p) => `${Math.round(percentile(values, p) || 0)} ms`;
  const reads = stats.jobs + stats.inline;
  return [
    String(size).padStart(4),
    String(reads).padStart(11),
    String(stats.inline).padStart(11),
    ms(stats.waitMs, 50).padStart(9),
    ms(stats.waitMs, 99).padStart(9),
    ms(stats.roundTripMs, 50).padStart(14),
    ms(stats.roundTripMs, 99).padStart(15),
    `${Math.round(stats.bytesIn / Math.max(1, stats.jobs))} / ${Math.round(stats.bytesOut / Math.max(1, stats.jobs))} B to processes`.padStart(
      24,
    ),
  ].join(' ');
}
for (const size of sizes) {
  const statsFile = join(dataDir, `extraction-${size}.json`);
  const options = serverOptions(`chat-${size}`, ['--max-concurrent', '1000', '--max-queue', '0']);
  const { child, url } = await startServer({
    ...options,
    env: { ...options.env, DEEPSEARCH_EXTRACTION_STATS_FILE: statsFile },
  });
  // One request first, so the numbers are those of a warm server, not of module loading. JIT goes
  // on through the first bursts (V8's compiler threads); BENCH_WARMUP=N runs N streams at once
  // first, for the numbers of a server that has been answering for a while.
  await oneStream(url, `${size}-warmup`);
  const warmup = Number(process.env.BENCH_WARMUP ?? 0);
  if (warmup > 0)
    await Promise.all(Array.from({ length: warmup }, (_, index) => oneStream(url, `${size}-warm-${index}`)));
  const threadsBefore = threadCpuMs(child.pid);
  const cpuBefore = cpuMs(child.pid);
  const treeCpuBefore = treeCpuMs(child.pid);
  const burstStarted = performance.now();
  const clientCpuBefore = process.cpuUsage();
  streamTimes.clear();
  const callsBefore = world.calls.length;
  const outcomes = await Promise.allSettled(
    Array.from({ length: size }, (_, index) => oneStream(url, `${size}-${index}`)),
  );
  const rss = rssMb(child.pid, 'VmHWM');
  const cpuPerStream = (cpuMs(child.pid) - cpuBefore) / size;
  const threads = threadSplit(size, threadsBefore, threadCpuMs(child.pid));
  const treeCpuPerStream = (treeCpuMs(child.pid) - treeCpuBefore) / size;
  const wallSeconds = (performance.now() - burstStarted) / 1000;
  const clientCpu = process.cpuUsage(clientCpuBefore);
  await stopServer(child);
  const done = outcomes.filter((outcome) => outcome.status === 'fulfilled').map((outcome) => outcome.value);
  const errors = outcomes.filter((outcome) => outcome.status === 'rejected');
  const floor = latencyMs * llmCallsPerRun;
  const firstChunks = done.map((run) => run.firstChunkMs);
  const totals = done.map((run) => run.totalMs);
  const overheads = done.map((run) => run.totalMs - floor);
  const summary = {
    size,
    completed: done.length,
    errors: errors.length,
    firstChunkP50Ms: percentile(firstChunks, 50),
    firstChunkP99Ms: percentile(firstChunks, 99),
    totalP50Ms: percentile(totals, 50),
    totalP99Ms: percentile(totals, 99),
    overheadP50Ms: percentile(overheads, 50),
    overheadP99Ms: percentile(overheads, 99),
    peakRssMb: rss,
    cpuPerStreamMs: cpuPerStream,
    cpuWithChildrenPerStreamMs: treeCpuPerStream,
    wallSeconds,
    // The 1-minute load average just after the burst (the burst's own processes included).
    load: Number(load()),
    // This process (the clients, the fake LLM, SearXNG and web) shares the machine's cores.
    benchCpuPerStreamMs: (clientCpu.user + clientCpu.system) / 1000 / size,
    threads,
  };
  summaries.push(summary);
  const ms = (value) => `${Math.round(value)} ms`.padStart(9);
  console.log(
    [
      String(size).padStart(4),
      String(summary.completed).padStart(10),
      String(summary.errors).padStart(7),
      ms(summary.firstChunkP50Ms),
      ms(summary.firstChunkP99Ms),
      ms(summary.totalP50Ms).padStart(10),
      ms(summary.totalP99Ms).padStart(10),
      ms(summary.overheadP50Ms).padStart(13),
      ms(summary.overheadP99Ms).padStart(13),
      `${rss.toFixed(0)} MB`.padStart(9),
      `${(rss / size).toFixed(2)} MB`.padStart(11),
      ms(cpuPerStream).padStart(11),
      ms(treeCpuPerStream).padStart(11),
      `${wallSeconds.toFixed(1)} s`.padStart(6),
      summary.load.toFixed(1).padStart(5),
      ms(summary.benchCpuPerStreamMs).padStart(11),
    ].join(' '),
  );
  extractionLines.push(extractionLine(size, statsFile));
  stageTables.push([size, stageLines(streamTimes, world.calls.slice(callsBefore), latencyMs, percentile)]);
  if (errors.length > 0) console.log(`      first error: ${errors[0].reason?.message ?? errors[0].reason}`);
}
if (summaries.length > 0) {
  console.log('\n   N  main thread  busiest other  V8, libuv and rest  (server CPU per stream by thread)');
  for (const summary of summaries) console.log(threadLine(summary.size, summary.threads));
}
if (extractionLines.length > 0) {
  console.log(
    '\n   N  page reads  in-process  wait p50  wait p99  round trip p50  round trip p99  bytes in/out per read',
  );
  for (const line of extractionLines) console.log(line);
}
for (const [size, lines] of stageTables) {
  if (lines.length === 0) continue;
  console.log(`\nN = ${size}: the server's time between a stream's LLM calls     p10      p50      p90`);
  for (const line of lines) console.log(line);
}
if (process.env.BENCH_DEBUG)
  console.log(
    world.llm.requests
      .map((request) => `${request.schemaName} ${Math.round(request.timing ?? 0)}`)
      .join('\n'),
  );
if (Number(process.env.BENCH_ASYNC_JOBS ?? 200) > 0)
  await runAsyncBench({
    latencyMs,
    startServer: (name, args) => startServer(serverOptions(name, args)),
    dataDir,
  });
if (otlp) console.log(`\ntraced: ${otlp.spans.length} spans received over OTLP/HTTP`);
await otlp?.close();
await world.close();
rmSync(dataDir, { recursive: true, force: true });
if (process.env.BENCH_JSON) writeFileSync(process.env.BENCH_JSON, JSON.stringify(summaries));
