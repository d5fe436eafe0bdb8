// node bench/extraction-start-cost.mjs — what a read from nothing costs in an extraction process
// against a worker thread (with resourceLimits), for a small page: boot, loading the HTML parser
// (the same esbuild bundle of src/extraction/fetched-to-page.ts for both) and the parse, until the
// page is back. Then the parse alone once warm. Median of BENCH_RUNS (default 7), alternating, with
// the load average: the number behind keeping processes (docs: src/extraction/README.md).
import { fork } from 'node:child_process';
import { mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import { build } from 'esbuild';

const runs = Number(process.env.BENCH_RUNS ?? 7);
const root = fileURLToPath(new URL('..', import.meta.url));
const directory = mkdtempSync(join(root, '.bench-extraction-start-'));
symlinkSync(join(root, 'node_modules'), join(directory, 'node_modules'));
await build({
  entryPoints: { extract: join(root, 'src/extraction/fetched-to-page.ts') },
  outdir: directory,
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  external: ['unpdf', 'mammoth'],
  banner: {
    js: "import { createRequire as __createRequire } from 'node:module';\nconst require = __createRequire(import.meta.url);",
  },
  logLevel: 'error',
});
const page =
  '<html><head><title>Tides at Brest</title></head><body><nav><a href="/">Home</a></nav><article><h1>Tides at Brest</h1><p>High tide at Brest is at 12:04 today, low tide at 18:17. The range is 5.8 metres.</p></article></body></html>';
const entry = join(directory, 'entry.mjs');
writeFileSync(
  entry,
  `import { parentPort } from 'node:worker_threads';
const { fetchedToPage, loadParser } = await import('./extract.js');
const send = (message) => (parentPort ? parentPort.postMessage(message) : process.send(message));
const read = () => fetchedToPage({ requestedUrl: 'https://a.test/', providerId: 'bench', fetched: { url: 'https://a.test/', status: 200, contentType: 'text/html', bytes: new TextEncoder().encode(${JSON.stringify(page)}), truncated: false } });
await loadParser('html');
await read();
send('first');
const started = performance.now();
for (let i = 0; i < 20; i++) await read();
send((performance.now() - started) / 20);
`,
);
const entryUrl = pathToFileURL(entry);

function timed(start) {
  return new Promise((resolve) => {
    const began = performance.now();
    let first;
    start((message, stop) => {
      if (message === 'first') first = performance.now() - began;
      else {
        stop();
        resolve({ first, warm: message });
      }
    });
  });
}
const viaProcess = () =>
  timed((on) => {
    const child = fork(entryUrl, [], { execArgv: ['--max-old-space-size=460'], serialization: 'advanced' });
    child.on('message', (message) => on(message, () => child.kill()));
  });
const viaThread = () =>
  timed((on) => {
    const worker = new Worker(entryUrl, { resourceLimits: { maxOldGenerationSizeMb: 460 } });
    worker.on('message', (message) => on(message, () => void worker.terminate()));
  });

const results = { process: [], thread: [] };
try {
  for (let run = 0; run < runs; run++) {
    results.process.push(await viaProcess());
    results.thread.push(await viaThread());
  }
} finally {
  rmSync(directory, { recursive: true, force: true });
}
const median = (values) => values.sort((a, b) => a - b)[Math.floor(values.length / 2)];
console.log(
  `median of ${runs}; node ${process.version}; load average ${os.loadavg()[0].toFixed(1)} on ${os.cpus().length} cores`,
);
console.table(
  Object.entries(results).map(([way, timings]) => ({
    way,
    firstPageMs: median(timings.map((timing) => timing.first)).toFixed(0),
    warmPageMs: median(timings.map((timing) => timing.warm)).toFixed(1),
  })),
);
