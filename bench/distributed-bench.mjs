// npm run bench:distributed — queue mode's throughput with 1, 2 and 3 workers, against the same jobs
// run in-process by one `deepsearch serve`. Real processes (the built CLI): one API node, N
// `deepsearch worker`s, a throwaway Redis and Postgres, the fake LLM (fixed latency), SearXNG and
// web of bench:server, all on 127.0.0.1. Each configuration gets BENCH_JOBS deep searches and
// BENCH_RESEARCH_JOBS research runs posted at once; every job is followed on its SSE events to
// `done` and its events compared with the stored ones (none lost, none twice). CPU/job is the CPU
// time of the configuration's deepsearch processes (API node and workers), summed, per job;
// servers/job that of redis-server and Postgres (its backends included), apart. The closing lines
// set the ratios against issue 23's targets (2 workers >= 1.6x the jobs/s of 1; CPU/job within
// 25% of in-process), with the load average: the machine may be shared, so read CPU/job first.
// Options: BENCH_WORKERS=1,2,3 BENCH_JOBS=200 BENCH_RESEARCH_JOBS=20 BENCH_WORKER_CONCURRENCY=20
// BENCH_WARMUP_JOBS=10 (per process, run before and not counted)
// BENCH_LATENCY_MS=500 BENCH_NODE_FLAGS="--cpu-prof --cpu-prof-dir=/tmp/prof" (API node and
// workers) BENCH_PROFILE=1 (Redis commands and Postgres statements per job, per configuration). Each
// configuration also prints what the fakes were asked per job (LLM calls by schema, searches, pages).
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Redis } from 'ioredis';
import { hasPostgres, hasRedis, startPostgres, startRedis } from '../test/helpers/scale-services.ts';
import { load, profileSettings, startCounting, startWorldCount, treeCpuMs } from './distributed-readings.mjs';
import { oneJob } from './server-async-bench.mjs';
import { cpuMs, ms, percentile, startBenchWorld, startServer, stopServer } from './server-bench-world.mjs';

const workerCounts = (process.env.BENCH_WORKERS ?? '1,2,3').split(',').filter(Boolean).map(Number);
const searchJobs = Number(process.env.BENCH_JOBS ?? 200);
const researchJobs = Number(process.env.BENCH_RESEARCH_JOBS ?? 20);
const concurrency = Number(process.env.BENCH_WORKER_CONCURRENCY ?? 20);
const latencyMs = Number(process.env.BENCH_LATENCY_MS ?? 500);
const warmupJobs = Number(process.env.BENCH_WARMUP_JOBS ?? 10);
const nodeFlags = (process.env.BENCH_NODE_FLAGS ?? '').split(' ').filter(Boolean);
const profile = process.env.BENCH_PROFILE === '1';
const cliPath = fileURLToPath(new URL('../dist/cli/main.js', import.meta.url));

if (!hasRedis() || !hasPostgres()) {
  console.error(
    'bench:distributed needs redis-server and postgresql installed (apt-get install redis-server postgresql)',
  );
  process.exit(1);
}
const world = await startBenchWorld({ latencyMs });
const [redis, postgres] = await Promise.all([startRedis(), startPostgres(profile ? profileSettings : [])]);
const dataDir = mkdtempSync(join(tmpdir(), 'deepsearch-bench-distributed-'));
const worldEnv = {
  PATH: process.env.PATH ?? '',
  DEEPSEARCH_LLM_BASE_URL: `${world.llm.url}/v1`,
  DEEPSEARCH_LLM_MODEL: 'fake-model',
  DEEPSEARCH_LLM_MAX_RETRIES: '0',
  DEEPSEARCH_SEARXNG_URL: world.searxng.url,
  DEEPSEARCH_ALLOW_PRIVATE_NETWORK: 'true',
  XDG_DATA_HOME: dataDir,
};

function startWorker(env) {
  const child = spawn(
    process.execPath,
    [...nodeFlags, cliPath, 'worker', '--concurrency', String(concurrency)],
    {
      env: { ...worldEnv, ...env },
      stdio: ['ignore', 'ignore', 'pipe'],
    },
  );
  return new Promise((resolve, reject) => {
    let stderr = '';
    child.stderr.on('data', (chunk) => {
      stderr += chunk;
      if (stderr.includes('worker taking jobs')) resolve(child);
    });
    child.once('exit', () => reject(new Error(`worker exited: ${stderr}`)));
  });
}

/**
 * Posts every job at once, follows each to its end; the numbers of one configuration. `pids`: its
 * deepsearch processes; `servers`: the Redis and Postgres it uses, if any.
 */
async function runJobs(url, { pids, servers = [], label, counting }) {
  // The fake LLM follows each question's script by the id in it (\w and -): no space in an id, or
  // every job of a configuration would share one script and ask different things than in-process.
  const prefix = label.replace(/\s+/g, '-');
  // Warm-up: every process loads the agent's code and compiles its hot paths on its first runs
  // (~0.6 s of CPU for a worker's first job, ~0.1 s more for each of the next few), a cost paid
  // once per process, not per job: a round of warmupJobs per process first (a research run among
  // them), its CPU shown apart, so CPU/job compares the configurations' steady state.
  const warmupCount = warmupJobs * Math.max(1, pids.length - 1);
  const warmupBefore = pids.map((pid) => cpuMs(pid));
  await Promise.all(
    Array.from({ length: warmupCount }, (_, index) =>
      oneJob(url, {
        mode: index % 10 === 9 ? 'research' : 'search',
        id: `${prefix}-warmup${index}`,
        reconnects: 0,
        latencyMs,
      }),
    ),
  );
  const warmupCpu = pids.map((pid, index) => ms(cpuMs(pid) - warmupBefore[index]));
  const counted = await counting?.();
  const asked = startWorldCount(world, searchJobs + researchJobs);
  const cpuBefore = pids.map((pid) => cpuMs(pid));
  const serversBefore = servers.reduce((sum, pid) => sum + treeCpuMs(pid), 0);
  const started = performance.now();
  const specs = [
    ...Array.from({ length: searchJobs }, (_, index) => ({ mode: 'search', id: `${prefix}-s${index}` })),
    ...Array.from({ length: researchJobs }, (_, index) => ({ mode: 'research', id: `${prefix}-r${index}` })),
  ];
  const jobs = await Promise.all(
    specs.map((spec, index) =>
      oneJob(url, { ...spec, reconnects: index % 20 === 0 ? 2 : 0, latencyMs }).catch((error) => ({
        error: error.message,
      })),
    ),
  );
  const wallSeconds = (performance.now() - started) / 1000;
  const cpuUsed = pids.map((pid, index) => (cpuMs(pid) - cpuBefore[index]) / jobs.length);
  const cpuPerJob = cpuUsed.reduce((sum, used) => sum + used, 0);
  const serversPerJob = (servers.reduce((sum, pid) => sum + treeCpuMs(pid), 0) - serversBefore) / jobs.length;
  const done = jobs.filter((job) => job.status === 'completed');
  const pair = (key) =>
    `${ms(
      percentile(
        done.map((job) => job[key]),
        50,
      ),
    )}/${ms(
      percentile(
        done.map((job) => job[key]),
        95,
      ),
    )}`;
  const lost = jobs.reduce((sum, job) => sum + (job.lost ?? 0), 0);
  const duplicated = jobs.reduce((sum, job) => sum + (job.duplicated ?? 0), 0);
  const errors = jobs.filter((job) => job.error || job.rejected || job.status !== 'completed');
  console.log(
    [
      label.padEnd(12),
      String(jobs.length).padStart(5),
      String(done.length).padStart(5),
      String(errors.length).padStart(6),
      (done.length / wallSeconds).toFixed(2).padStart(7),
      pair('submitMs').padStart(16),
      pair('firstEventMs').padStart(18),
      pair('doneMs').padStart(18),
      ms(cpuPerJob).padStart(9),
      (servers.length > 0 ? ms(serversPerJob) : '-').padStart(12),
      `${lost}/${duplicated}`.padStart(9),
      load().padStart(16),
    ].join(' '),
  );
  if (errors.length > 0) {
    const { error, status, runError } = errors[0];
    console.log(`  first error: ${error ?? status ?? 'refused'}${runError ? ` (${runError})` : ''}`);
  }
  if (pids.length > 1)
    console.log(`  CPU/job: API node ${ms(cpuUsed[0])}, workers ${cpuUsed.slice(1).map(ms).join(' + ')}`);
  console.log(`  warm-up (${warmupCount} jobs before, not counted): CPU ${warmupCpu.join(' + ')}`);
  asked();
  await counted?.report();
  return { jobsPerSecond: done.length / wallSeconds, cpuPerJob, serversPerJob };
}

console.log(
  `${searchJobs} deep searches + ${researchJobs} research runs posted at once; fake LLM ${latencyMs} ms per call; workers --concurrency ${concurrency}`,
);
console.log(`load average at start: ${load()} (${(await import('node:os')).cpus().length} cores)`);
console.log(
  'setup         jobs  done  errors  jobs/s    submit p50/p95  first ev p50/p95      done p50/p95   CPU/job  servers/job  lost/dup  load (1/5/15 min)',
);
const results = {};
try {
  // The reference: one process runs every job, as many at once as a worker of each configuration.
  const local = await startServer({
    llmUrl: world.llm.url,
    searxngUrl: world.searxng.url,
    args: ['--max-concurrent', String(concurrency), '--max-queue', '1000'],
    env: { XDG_DATA_HOME: dataDir, DEEPSEARCH_RUNS_FILE: join(dataDir, 'in-process.sqlite') },
    nodeFlags,
  });
  results.inProcess = await runJobs(local.url, { pids: [local.child.pid], label: 'in-process' });
  await stopServer(local.child);
  for (const count of workerCounts) {
    const flush = new Redis(redis.url);
    await flush.flushall();
    flush.disconnect();
    const env = {
      DEEPSEARCH_REDIS_URL: redis.url,
      DEEPSEARCH_DATABASE_URL: await postgres.createDatabase(),
      DEEPSEARCH_QUEUE_MAX: '1000',
    };
    const api = await startServer({
      llmUrl: world.llm.url,
      searxngUrl: world.searxng.url,
      env: { XDG_DATA_HOME: dataDir, ...env },
      nodeFlags,
    });
    const workers = await Promise.all(Array.from({ length: count }, () => startWorker(env)));
    results[count] = await runJobs(api.url, {
      pids: [api.child.pid, ...workers.map((worker) => worker.pid)],
      servers: [redis.pid, postgres.pid],
      label: `${count} worker${count > 1 ? 's' : ''}`,
      counting: profile
        ? () =>
            startCounting({
              redisUrl: redis.url,
              databaseUrl: env.DEEPSEARCH_DATABASE_URL,
              jobs: searchJobs + researchJobs,
            })
        : undefined,
    });
    await Promise.all([stopServer(api.child), ...workers.map((worker) => stopServer(worker))]);
  }
  console.log(`targets (issue 23), load average now ${load()}:`);
  const one = results[1];
  for (const count of workerCounts.filter((count) => count > 1 && one)) {
    const ratio = results[count].jobsPerSecond / one.jobsPerSecond;
    const target = count === 2 ? ` (target >= 1.60: ${ratio >= 1.6 ? 'met' : 'NOT met'})` : '';
    console.log(`  ${count} workers / 1 worker, jobs/s: ${ratio.toFixed(2)}×${target}`);
  }
  const inProcess = results.inProcess.cpuPerJob;
  for (const count of workerCounts) {
    const { cpuPerJob, serversPerJob } = results[count];
    const over = (value) => `${value >= inProcess ? '+' : ''}${((value / inProcess - 1) * 100).toFixed(0)}%`;
    console.log(
      `  CPU/job, ${count} worker${count > 1 ? 's' : ''} vs in-process: ${over(cpuPerJob)} deepsearch processes ` +
        `(target <= +25%: ${cpuPerJob <= inProcess * 1.25 ? 'met' : 'NOT met'}), ` +
        `${over(cpuPerJob + serversPerJob)} with redis-server and Postgres`,
    );
  }
} finally {
  await Promise.all([redis.stop(), postgres.stop(), world.close?.()]);
  rmSync(dataDir, { recursive: true, force: true });
}
