// npm run bench:server-compare -- [--rounds 4] [--sizes 100,200] label=path [label=path,KEY=VALUE ...]
//
// bench:server's first section (N concurrent streams) against two or more arms, alternated: each
// round runs every arm once, in an order that rotates from round to round, and the end prints
// each arm's medians with their range. An arm is a label, a built checkout (its dist/cli/main.js;
// `.` is this one) and environment settings for that arm's server (DEEPSEARCH_RUN_THREADS=0,
// BENCH_NODE_FLAGS=...). The same bench (this checkout's) measures every arm.
//
// Why: on a shared or virtual machine the same build's overhead moves by a third from one minute
// to the next, more than most changes move it. Two arms measured in the same minutes, several
// times, compare; two runs an hour apart do not.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const args = process.argv.slice(2);
const option = (name, fallback) => {
  const index = args.indexOf(`--${name}`);
  if (index < 0) return fallback;
  const [value] = args.splice(index, 2).slice(1);
  return value;
};
const rounds = Number(option('rounds', '4'));
const sizes = option('sizes', '100,200');
const arms = args.map(parseArm);
if (arms.length < 2 || !Number.isInteger(rounds) || rounds < 1) {
  console.error(
    'usage: npm run bench:server-compare -- [--rounds 4] [--sizes 100,200] label=path[,KEY=VALUE...] label=path[,KEY=VALUE...]',
  );
  process.exit(2);
}

function parseArm(text) {
  const equals = text.indexOf('=');
  if (equals <= 0) throw new Error(`an arm is label=path[,KEY=VALUE...], got "${text}"`);
  const [path, ...settings] = text.slice(equals + 1).split(',');
  const env = Object.fromEntries(
    settings.map((setting) => {
      const at = setting.indexOf('=');
      if (at <= 0) throw new Error(`an arm's setting is KEY=VALUE, got "${setting}"`);
      return [setting.slice(0, at), setting.slice(at + 1)];
    }),
  );
  return { label: text.slice(0, equals), cli: resolve(path, 'dist/cli/main.js'), env, runs: [] };
}

const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = sorted.length / 2;
  return sorted.length % 2 ? sorted[Math.floor(middle)] : (sorted[middle - 1] + sorted[middle]) / 2;
};
const bench = fileURLToPath(new URL('./server-bench.mjs', import.meta.url));
const workDir = mkdtempSync(join(tmpdir(), 'deepsearch-bench-compare-'));
const tsx = fileURLToPath(new URL('../node_modules/.bin/tsx', import.meta.url));
/** What each round prints and the end summarises, per N. */
const columns = [
  ['overhead p50', (run) => run.overheadP50Ms, 'ms'],
  ['overhead p99', (run) => run.overheadP99Ms, 'ms'],
  ['first chunk p99', (run) => run.firstChunkP99Ms, 'ms'],
  ['CPU/stream +children', (run) => run.cpuWithChildrenPerStreamMs, 'ms'],
  ['main thread', (run) => run.threads.mainMs, 'ms'],
  ['busiest other', (run) => run.threads.busiestOtherMs, 'ms'],
  ['V8 and rest', (run) => run.threads.restMs, 'ms'],
  ['bench CPU', (run) => run.benchCpuPerStreamMs, 'ms'],
  ['peak RSS', (run) => run.peakRssMb, 'MB'],
];

try {
  for (let round = 0; round < rounds; round++) {
    for (let turn = 0; turn < arms.length; turn++) {
      const arm = arms[(round + turn) % arms.length];
      const file = join(workDir, `${round}-${turn}.json`);
      execFileSync(tsx, [bench], {
        stdio: ['ignore', 'ignore', 'inherit'],
        env: {
          ...process.env,
          ...arm.env,
          BENCH_CLI: arm.cli,
          BENCH_SIZES: sizes,
          BENCH_ASYNC_JOBS: '0',
          BENCH_JSON: file,
        },
      });
      const bursts = JSON.parse(readFileSync(file, 'utf8'));
      arm.runs.push(bursts);
      console.log(
        `round ${round + 1} ${arm.label.padEnd(12)} ${bursts
          .map(
            (burst) =>
              `N=${burst.size}: overhead p50 ${Math.round(burst.overheadP50Ms)} ms, CPU/stream ${Math.round(burst.cpuWithChildrenPerStreamMs)} ms${burst.errors ? `, ${burst.errors} errors` : ''}`,
          )
          .join('; ')}`,
      );
    }
  }
} finally {
  rmSync(workDir, { recursive: true, force: true });
}

console.log(`\nmedians over ${rounds} alternated rounds (min–max)`);
for (const size of sizes.split(',').map(Number)) {
  console.log(`\nN = ${size}`.padEnd(24) + arms.map((arm) => arm.label.padStart(22)).join(''));
  for (const [name, read, unit] of columns) {
    const cells = arms.map((arm) => {
      const values = arm.runs.map((bursts) => bursts.find((burst) => burst.size === size)).map(read);
      const [low, high] = [Math.min(...values), Math.max(...values)];
      const digits = unit === 'ms' && high < 20 ? 1 : 0;
      return `${median(values).toFixed(digits)} (${low.toFixed(digits)}–${high.toFixed(digits)}) ${unit}`.padStart(
        22,
      );
    });
    console.log(`  ${name.padEnd(21)}${cells.join('')}`);
  }
}
