// npm run bench:startup — what one invocation of the built CLI costs before it does any work:
// --help per command, then `read` of a small local HTML file and `search` against a fake SearXNG on
// 127.0.0.1 (both with the cache off). Each case runs BENCH_RUNS times after a warm-up run; the table
// shows the median wall time and the median CPU time (user + system) of the CLI process. CPU is the
// fairer number on a loaded machine: it is what the process itself spent, mostly loading modules.
// The CPU time is read from Linux's /proc (the children's times of this process, in 10 ms ticks);
// for `read` it leaves out the extraction process (a grandchild, killed rather than waited for), so
// wall time is the number there: `read` of a 300-byte page against `--version`, the floor.
// Options: BENCH_RUNS=10, BENCH_BEFORE=<another checkout's dist/cli/main.js> (each case run by both
// builds in alternation, so both see the same machine), BENCH_ONLY='version|read <' (the cases whose name matches).
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startFakeSearxng } from '../test/helpers/fake-searxng-server.ts';

const runs = Number(process.env.BENCH_RUNS ?? 10);
const helpTargetMs = 400;
/** The whole `read` of a small local page, extraction process included. */
const readTargetMs = 400;
const cliPath = fileURLToPath(new URL('../dist/cli/main.js', import.meta.url));
const beforePath = process.env.BENCH_BEFORE;
const only = process.env.BENCH_ONLY;
const directory = mkdtempSync(join(os.tmpdir(), 'deepsearch-startup-'));
const page = join(directory, 'page.html');
writeFileSync(
  page,
  `<html><head><title>Tides at Brest</title></head><body><nav><a href="/">Home</a></nav><article>
<h1>Tides at Brest</h1><p>High tide at Brest is at 12:04 today, low tide at 18:17. The range is 5.8 metres.</p>
<p>See <a href="https://tides.example/cherbourg">Cherbourg</a> for the next port east.</p></article></body></html>`,
);
const searxng = await startFakeSearxng({
  results: () => [
    { url: 'https://tides.example/brest', title: 'Brest tides', content: 'High tide at 12:04.' },
    { url: 'https://tides.example/cherbourg', title: 'Cherbourg tides', content: 'High tide at 13:10.' },
  ],
});

/** CPU time (user + system) of this process's finished children so far, in ms, from /proc (10 ms ticks). */
function childrenCpuMs() {
  const fields = readFileSync('/proc/self/stat', 'utf8').split(') ')[1].split(' ');
  // After the command name: field 16 is cutime, 17 cstime (1-based over the whole line).
  return (Number(fields[13]) + Number(fields[14])) * 10;
}

function runCli(args, cli = cliPath) {
  return new Promise((resolve, reject) => {
    const child = execFile(
      process.execPath,
      [cli, ...args],
      {
        cwd: directory,
        env: { PATH: process.env.PATH ?? '', NO_COLOR: '1', DEEPSEARCH_NO_CACHE: '1' },
        timeout: 30_000,
      },
      (error, stdout, stderr) => {
        if (error) reject(new Error(`deepsearch ${args.join(' ')} failed: ${stderr || error.message}`));
        else resolve(stdout);
      },
    );
    child.stdin?.end();
  });
}

async function measure(args, clis) {
  for (const cli of clis) await runCli(args, cli); // warm-up: the file system cache is not what is measured
  const times = clis.map(() => ({ wall: [], cpu: [] }));
  for (let run = 0; run < runs; run++) {
    for (const [index, cli] of clis.entries()) {
      const cpuBefore = childrenCpuMs();
      const started = performance.now();
      await runCli(args, cli);
      times[index].wall.push(performance.now() - started);
      times[index].cpu.push(childrenCpuMs() - cpuBefore);
    }
  }
  const middle = (values) => values.sort((a, b) => a - b)[Math.floor(values.length / 2)];
  return times.map(({ wall, cpu }) => ({ wall: middle(wall), cpu: middle(cpu) }));
}

const cases = [
  { name: '--version', args: ['--version'] },
  { name: '--help', args: ['--help'], targetMs: helpTargetMs },
  { name: 'ask --help', args: ['ask', '--help'], targetMs: helpTargetMs },
  { name: 'search --help', args: ['search', '--help'], targetMs: helpTargetMs },
  { name: 'read --help', args: ['read', '--help'], targetMs: helpTargetMs },
  {
    name: `read <${statSync(page).size}-byte local html file>`,
    args: ['read', page],
    wallTargetMs: readTargetMs,
  },
  { name: 'search <query> (fake SearXNG)', args: ['search', 'tides', '--searxng-url', searxng.url] },
];
const rows = [];
const clis = beforePath ? [cliPath, beforePath] : [cliPath];
try {
  for (const { name, args, targetMs, wallTargetMs } of cases) {
    if (only && !new RegExp(only).test(name)) continue;
    const [times, before] = await measure(args, clis);
    rows.push({
      case: `deepsearch ${name}`,
      wallMedianMs: times.wall.toFixed(0),
      cpuMedianMs: times.cpu.toFixed(0),
      ...(before ? { beforeWallMs: before.wall.toFixed(0), beforeCpuMs: before.cpu.toFixed(0) } : {}),
      target: targetMs
        ? `< ${targetMs} ms CPU ${times.cpu < targetMs ? 'ok' : 'SLOW'}`
        : wallTargetMs
          ? `< ${wallTargetMs} ms wall ${times.wall < wallTargetMs ? 'ok' : 'SLOW'}`
          : '',
    });
  }
} finally {
  await searxng.close();
  rmSync(directory, { recursive: true, force: true });
}
console.log(
  `median of ${runs} runs after a warm-up; node ${process.version}; load average ${os.loadavg()[0].toFixed(1)} on ${os.cpus().length} cores${beforePath ? `; before: ${beforePath}` : ''}`,
);
console.table(rows);
