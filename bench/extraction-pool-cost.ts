/**
 * The extraction pool's cost on normal pages, for `npm run bench:extract`: each page read whole
 * (decode, limits, main content, markdown) in this process and through the pool of extraction
 * processes, one after the other in the same run (alternating which goes first), so both see the
 * same machine. Prints wall ms per page, this process's CPU ms per page (what the pool leaves on the
 * event loop), how often a process was replaced, and the load average.
 */
import { readFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { gunzipSync } from 'node:zlib';
import { extractionConfigSchema } from '../src/config/config-schema.js';
import {
  type ContentExtractor,
  createInProcessExtractor,
  htmlInput,
} from '../src/extraction/worker/content-extractor.js';
import { createExtractionPool } from '../src/extraction/worker/extraction-pool.js';
import { cpuSeconds } from '../test/helpers/process-state.js';
import { median } from './extraction-score.js';

interface Timing {
  wallMs: number[];
  /** This process's CPU per page. */
  cpuMs: number[];
  /** CPU of the extraction processes over the run (Linux; 10 ms ticks, so a sum, not per page). */
  childCpuMs: number;
}

export async function measurePoolCost(options: { directory: string; ids: readonly string[] }): Promise<void> {
  const settings = extractionConfigSchema.parse({ concurrency: 1, timeoutSeconds: 120 });
  const pool = createExtractionPool(settings);
  const paths: Array<[string, ContentExtractor]> = [
    ['in-process', createInProcessExtractor()],
    ['pool', pool],
  ];
  const timings = new Map(paths.map(([name]) => [name, { wallMs: [], cpuMs: [], childCpuMs: 0 } as Timing]));
  const load = loadavg()[0]!;
  const pids = new Set<number>();
  // Both paths read the first pages unmeasured: the pool's process started and its parsers' code
  // compiled, this process's the same, so neither pays for its start in the numbers.
  const warm = options.ids.slice(0, Math.min(warmPages, options.ids.length - 1));
  const measured = options.ids.slice(warm.length);
  try {
    for (const id of warm) {
      const input = readInput(options.directory, id);
      for (const [, extractor] of paths) await extractor.extract(input).catch(() => undefined);
    }
    for (const [index, id] of measured.entries()) {
      const input = readInput(options.directory, id);
      const order = index % 2 === 0 ? paths : [...paths].reverse();
      for (const [name, extractor] of order) {
        const timing = timings.get(name)!;
        const childCpu = await poolCpuSeconds(pool.pids);
        const cpu = process.cpuUsage();
        const started = performance.now();
        await extractor.extract(input).catch(() => undefined);
        timing.wallMs.push(performance.now() - started);
        const used = process.cpuUsage(cpu);
        timing.cpuMs.push((used.user + used.system) / 1000);
        // A process replaced during the job took its CPU with it: those pages count what the new one used.
        timing.childCpuMs += Math.max(0, (await poolCpuSeconds(pool.pids)) - childCpu) * 1000;
        for (const pid of pool.pids) pids.add(pid);
      }
    }
  } finally {
    pool.close();
  }
  printCost(timings, { pages: measured.length, processes: pids.size, load });
}

/** Pages read by both paths before any is measured. */
const warmPages = 20;

function readInput(directory: string, id: string) {
  const html = gunzipSync(readFileSync(join(directory, 'html', `${id}.html.gz`))).toString('utf8');
  return htmlInput({ html, url: `https://bench.test/${id}`, providerId: 'bench' });
}

async function poolCpuSeconds(pids: readonly number[]): Promise<number> {
  const seconds = await Promise.all(pids.map(cpuSeconds));
  return seconds.reduce((sum, value) => sum + value, 0);
}

function printCost(
  timings: Map<string, Timing>,
  run: { pages: number; processes: number; load: number },
): void {
  const mean = (values: number[]) =>
    values.reduce((sum, value) => sum + value, 0) / Math.max(1, values.length);
  const inProcess = timings.get('in-process')!;
  const pool = timings.get('pool')!;
  const poolChildCpu = pool.childCpuMs / run.pages;
  console.log(
    `\nextraction pool cost, ${run.pages} pages, one at a time (load average ${run.load.toFixed(2)} before, ${loadavg()[0]!.toFixed(2)} after):`,
  );
  console.log(
    '| path | median ms/page | mean ms/page | CPU ms/page here | CPU ms/page in extraction processes |',
  );
  console.log('| --- | --- | --- | --- | --- |');
  const row = (name: string, timing: Timing, childCpu: string) =>
    console.log(
      `| ${name} | ${median(timing.wallMs).toFixed(1)} | ${mean(timing.wallMs).toFixed(1)} | ${mean(timing.cpuMs).toFixed(1)} | ${childCpu} |`,
    );
  row('in-process', inProcess, '-');
  row('pool', pool, poolChildCpu.toFixed(1));
  const wallMedian = median(pool.wallMs) / median(inProcess.wallMs);
  const wallMean = mean(pool.wallMs) / mean(inProcess.wallMs);
  const cpu = (mean(pool.cpuMs) + poolChildCpu) / mean(inProcess.cpuMs);
  console.log(
    `pool / in-process: wall median ${wallMedian.toFixed(2)}, wall mean ${wallMean.toFixed(2)}, CPU of both processes ${cpu.toFixed(2)} (goal ≤ 1.20); ` +
      `extraction processes used: ${run.processes} (a process replaced after a page that left memory behind counts again)`,
  );
}
