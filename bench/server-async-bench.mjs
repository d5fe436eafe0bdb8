// bench:server's async section: jobs submitted at once with POST /v1/research, each client following
// GET /v1/research/{id}/events (SSE) to its `done`; some clients drop the stream mid-run and come back
// with Last-Event-ID. Every job's events as received are checked against the stored ones (GET
// /events after the end): none lost, none twice, same content. A first check fills a tiny server
// (--max-concurrent 2 --max-queue 3): jobs beyond the limit wait as `queued`, beyond the queue get the
// documented 429 `server_busy` with Retry-After, and DELETE cancels running and queued jobs alike.
// Options: BENCH_ASYNC_JOBS=200 (search mode) BENCH_ASYNC_RESEARCH_JOBS=20 BENCH_ASYNC_MAX_CONCURRENT=50
// BENCH_ASYNC_MAX_QUEUE (default: enough for every job) BENCH_ASYNC_RECONNECTS=10 (clients per batch that
// reconnect, twice each)
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { cpuMs, ms, percentile, rssMb, stopServer } from './server-bench-world.mjs';
import { checkQueue } from './server-queue-check.mjs';
import { followEvents, readEvents } from './sse-client.mjs';

const searchJobs = Number(process.env.BENCH_ASYNC_JOBS ?? 200);
const researchJobs = Number(process.env.BENCH_ASYNC_RESEARCH_JOBS ?? 20);
const maxConcurrent = Number(process.env.BENCH_ASYNC_MAX_CONCURRENT ?? 50);
const maxQueue = Number(process.env.BENCH_ASYNC_MAX_QUEUE ?? Math.max(searchJobs, researchJobs));
const reconnecting = Number(process.env.BENCH_ASYNC_RECONNECTS ?? 10);

export async function runAsyncBench({ latencyMs, startServer, dataDir }) {
  console.log(
    `\nasync jobs: POST /v1/research, each followed on /events (SSE) to its end; fake LLM latency ${latencyMs} ms`,
  );
  const queue = await startServer('queue', ['--max-concurrent', '2', '--max-queue', '3']);
  console.log(await checkQueue(queue.url));
  await stopServer(queue.child);

  const { child, url } = await startServer('async', [
    '--max-concurrent',
    String(maxConcurrent),
    '--max-queue',
    String(maxQueue),
  ]);
  // One job first, so the numbers are those of a warm server, not of module loading and JIT.
  await oneJob(url, { mode: 'search', id: 'async-warmup', reconnects: 0, latencyMs });
  const rssBefore = rssMb(child.pid);
  const cpuBefore = cpuMs(child.pid);
  console.log(`--max-concurrent ${maxConcurrent} --max-queue ${maxQueue}`);
  console.log(
    'mode      jobs  done  errors  submit p50/p95  first event p50/p95  done p50/p95/max     jobs/s  max running/queued  queued at submit  rejected  /ready p99  events/job',
  );
  const batches = [];
  for (const [mode, size] of [
    ['search', searchJobs],
    ['research', researchJobs],
  ]) {
    if (size > 0) batches.push(await runBatch(url, { mode, size, latencyMs }));
  }
  const jobs = batches.flatMap((batch) => batch.jobs);
  for (const batch of batches) console.log(batch.note);
  const rssAfter = rssMb(child.pid);
  const cpuPerJob = (cpuMs(child.pid) - cpuBefore) / jobs.length;
  const peak = rssMb(child.pid, 'VmHWM');
  await stopServer(child);
  const dbBytes = readdirSync(dataDir)
    .filter((name) => name.startsWith('async.sqlite'))
    .reduce((sum, name) => sum + statSync(join(dataDir, name)).size, 0);
  const followed = jobs.filter((job) => job.events);
  const accepted = jobs.filter((job) => !job.rejected).length;
  const events = followed.reduce((sum, job) => sum + job.events, 0);
  const reconnected = followed.filter((job) => job.reconnects > 0);
  console.log(
    `server RSS ${rssBefore.toFixed(0)} MB before, ${rssAfter.toFixed(0)} MB after (peak ${peak.toFixed(0)} MB); ` +
      `CPU/job ${ms(cpuPerJob)}; run store ${(dbBytes / 1e6).toFixed(1)} MB (database and WAL) for ${accepted + 1} runs`,
  );
  console.log(
    `SSE events == stored events for ${followed.filter((job) => job.consistent).length}/${accepted} jobs accepted (${events} events); ` +
      `${reconnected.length} clients reconnected ${reconnected.reduce((sum, job) => sum + job.reconnects, 0)} times with Last-Event-ID: ` +
      `${followed.reduce((sum, job) => sum + job.lost, 0)} lost, ${followed.reduce((sum, job) => sum + job.duplicated, 0)} duplicated`,
  );
  const errors = jobs.filter((job) => job.error);
  if (errors.length > 0) console.log(`first error: ${errors[0].error}`);
}

async function runBatch(url, { mode, size, latencyMs }) {
  const ready = sampleReady(url);
  const started = performance.now();
  // Reconnecting clients spread over the batch, so some of them join queued jobs.
  const every = Math.max(1, Math.floor(size / Math.max(1, reconnecting)));
  const jobs = await Promise.all(
    Array.from({ length: size }, (_, index) =>
      oneJob(url, {
        mode,
        id: `${mode}-${index}`,
        reconnects: index % every === 0 && index / every < reconnecting ? 2 : 0,
        latencyMs,
      }).catch((error) => ({ error: error.message })),
    ),
  );
  const { maxRunning, maxQueued, latencies } = await ready.stop();
  const wallSeconds = (Math.max(...jobs.map((job) => job.doneAt ?? 0)) - started) / 1000;
  const done = jobs.filter((job) => job.status === 'completed');
  const rejected = jobs.filter((job) => job.rejected).length;
  for (const job of jobs) {
    if (job.rejected) continue;
    if (!job.error && job.status !== 'completed') job.error = `job ended ${job.status}`;
    if (!job.error && !job.consistent) job.error = `job ${job.id}: events received differ from those stored`;
  }
  // A job is refused only when every slot and every place in the queue is taken.
  if (rejected > 0 && size <= maxConcurrent + maxQueue)
    jobs.push({
      error: `${rejected} jobs refused with room for ${maxConcurrent} running and ${maxQueue} queued`,
    });
  if (maxRunning > maxConcurrent)
    jobs.push({ error: `${maxRunning} running, over the limit ${maxConcurrent}` });
  const errors = jobs.filter((job) => job.error).length;
  const pick = (key) => done.map((job) => job[key]);
  const pair = (values) => `${ms(percentile(values, 50))}/${ms(percentile(values, 95))}`;
  console.log(
    [
      mode.padEnd(8),
      String(size).padStart(5),
      String(done.length).padStart(5),
      String(errors).padStart(7),
      pair(pick('submitMs')).padStart(15),
      pair(pick('firstEventMs')).padStart(20),
      `${pair(pick('doneMs'))}/${ms(Math.max(...pick('doneMs')))}`.padStart(26),
      (done.length / wallSeconds).toFixed(1).padStart(6),
      `${maxRunning}/${maxQueued}`.padStart(19),
      String(jobs.filter((job) => job.submitted === 'queued').length).padStart(17),
      String(rejected).padStart(9),
      ms(percentile(latencies, 99)).padStart(11),
      (done.reduce((sum, job) => sum + job.events, 0) / Math.max(1, done.length)).toFixed(0).padStart(11),
    ].join(' '),
  );
  const firstEvents = (submitted) =>
    done.filter((job) => job.submitted === submitted).map((job) => job.firstEventMs);
  const atOnce = firstEvents('running');
  const waited = firstEvents('queued');
  const note =
    `${mode}: first event ${pair(atOnce)} (p50/p95) for the ${atOnce.length} jobs that ran at once` +
    (waited.length > 0 ? `, ${pair(waited)} for the ${waited.length} queued (their wait for a slot)` : '');
  return { jobs, note };
}

/** One client: submit, follow the events to `done` (dropping and resuming `reconnects` times), compare. */
export async function oneJob(url, { mode, id, reconnects, latencyMs }) {
  const started = performance.now();
  const question = `Who directed the Best Picture winner of 2019? (bench question ${id})`;
  const response = await fetch(`${url}/v1/research`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ question, mode }),
  });
  const submitMs = performance.now() - started;
  const body = await response.json();
  // A full queue is the documented 429 server_busy; any other refusal is an error.
  if (response.status === 429 && body.error?.code === 'server_busy') return { rejected: true };
  if (response.status !== 202)
    return { error: `POST answered ${response.status} ${JSON.stringify(body.error)}` };
  const followed = await followEvents(`${url}/v1/research/${body.id}/events`, {
    started,
    // Drop after the 2nd event, then 2 events later; stay away for a model call so events are missed.
    dropAfter: reconnects > 0 ? [2, 4] : [],
    awayMs: latencyMs,
  });
  const stored = await readEvents(`${url}/v1/research/${body.id}/events`);
  const record = await (await fetch(`${url}/v1/research/${body.id}`)).json();
  const seqs = followed.events.map((event) => event.seq);
  const duplicated = seqs.length - new Set(seqs).size;
  const lost = stored.filter((event) => !seqs.includes(event.seq)).length;
  const consistent =
    stored.length > 0 &&
    stored.length === followed.events.length &&
    stored.every((event, index) => event.seq === seqs[index] && event.data === followed.events[index].data);
  return {
    id: body.id,
    submitted: body.status,
    submitMs,
    firstEventMs: followed.firstEventMs,
    doneMs: followed.doneAt - started,
    doneAt: followed.doneAt,
    status:
      followed.status === record.status ? record.status : `${followed.status} (GET says ${record.status})`,
    events: followed.events.length,
    // What a failed run stored as its error (code and message), for the benchmark's error line.
    runError: record.error ? `${record.error.code}: ${record.error.message}` : undefined,
    reconnects: followed.reconnects,
    consistent,
    lost,
    duplicated,
  };
}

/** Polls GET /ready: the most jobs running and waiting at once, and how long the server took to answer. */
function sampleReady(url) {
  let stopped = false;
  let maxRunning = 0;
  let maxQueued = 0;
  const latencies = [];
  const loop = (async () => {
    while (!stopped) {
      const started = performance.now();
      const ready = await (await fetch(`${url}/ready`)).json();
      latencies.push(performance.now() - started);
      maxRunning = Math.max(maxRunning, ready.running);
      maxQueued = Math.max(maxQueued, ready.queued);
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
  })();
  return {
    async stop() {
      stopped = true;
      await loop;
      return { maxRunning, maxQueued, latencies };
    },
  };
}
