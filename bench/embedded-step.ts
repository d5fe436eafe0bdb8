/**
 * `npm run bench:embedded`: the embedded model on this machine's CPU, with the tiny random-weight
 * GGUF the tests write (no real model can be downloaded here), twice: on a quiet machine, then with
 * a busy loop holding one core (a server runs the model beside its own work). Each prints the
 * threads chosen and why, the probe's time, reading and writing speed, one agent-sized call cold
 * and again with its system prompt cached, and whole `ask` runs of the built CLI against a fake
 * SearXNG and web (time per LLM call). Needs node-llama-cpp (bash scripts/install-embedded-runtime.sh).
 * BENCH_THREADS sets the threads (default: chosen as a user's run chooses them).
 */
import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { closeEmbeddedEngines, getEmbeddedEngine } from '../src/embedded-model/embedded-engine.js';
import { modelSpeed } from '../src/embedded-model/estimate-speed.js';
import { startFakeSearxng } from '../test/helpers/fake-searxng-server.js';
import { startFakeWeb } from '../test/helpers/fake-web-server.js';
import { writeTinyGguf } from '../test/helpers/tiny-gguf.js';

const threads = process.env.BENCH_THREADS ? Number(process.env.BENCH_THREADS) : undefined;
const cliPath = fileURLToPath(new URL('../dist/cli/main.js', import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'deepsearch-embedded-bench-'));
const model = join(dir, 'tiny.gguf');
writeTinyGguf(model);

const web = await startFakeWeb({
  pages: { '/p': { html: '<html><body><p>Parasite is a 2019 film by Bong Joon-ho.</p></body></html>' } },
});
const searxng = await startFakeSearxng({
  results: () => [{ url: `${web.url}/p`, title: 'Parasite', content: 'A 2019 film by Bong Joon-ho.' }],
});

for (const busy of [false, true]) {
  const loop = busy ? startBusyLoop() : undefined;
  try {
    if (loop) await new Promise((resolve) => setTimeout(resolve, 1000));
    console.log(
      `\n== ${busy ? 'busy: a loop holds one core' : 'quiet'} · load average ${loadavg()
        .map((value) => value.toFixed(2))
        .join(' ')} · threads ${threads ?? 'default'}`,
    );
    await benchEngine();
    await benchAsks(busy ? 'busy' : 'quiet');
  } finally {
    loop?.kill('SIGKILL');
  }
}
await Promise.all([web.close(), searxng.close()]);

/** Another process spinning on one core, as a server's own work would. */
function startBusyLoop(): ChildProcess {
  return spawn(process.execPath, ['-e', 'for (;;) {}'], { stdio: 'ignore' });
}

async function benchEngine(): Promise<void> {
  const engine = await getEmbeddedEngine({
    modelPath: model,
    settings: { ...(threads ? { threads } : {}), gpu: 'cpu' },
    maxContextTokens: 4096,
  });
  const probeStarted = performance.now();
  const speed = await modelSpeed(engine, { fresh: true });
  console.log(
    `model load ${engine.info.loadMs} ms · ${engine.info.backend} · window ${engine.info.contextTokens} tokens · ` +
      `probe ${Math.round(performance.now() - probeStarted)} ms · reads ${speed.promptPerSecond} tokens/s · ` +
      `writes ${speed.outputPerSecond} tokens/s\n${engine.info.threads} thread(s): ${speed.threadsReason}`,
  );
  // An agent-sized call: a ~2,500-token system prompt, then the same prompt with another question.
  const system = 'Rules for the agent: search, read, cite each claim with a quote. '.repeat(40);
  const step = async (question: string) => {
    const started = performance.now();
    const result = await engine.generate({
      lane: 'loop',
      messages: [
        { type: 'system', text: system },
        { type: 'user', text: question },
      ],
      grammar: {
        type: 'object',
        properties: { think: { type: 'string' }, queries: { type: 'array', items: { type: 'string' } } },
      },
      maxTokens: 200,
    });
    return { ms: Math.round(performance.now() - started), ...result };
  };
  const cold = await step('<question>First question?</question>');
  const warm = await step('<question>A second question, asked the next step?</question>');
  for (const [label, result] of [
    ['step, cold', cold],
    ['step, system cached', warm],
  ] as const) {
    console.log(
      `${label.padEnd(20)} ${String(result.ms).padStart(6)} ms · prompt ${result.promptTokens} tokens ` +
        `(${result.cachedPromptTokens} from the KV cache) · reply ${result.completionTokens} tokens`,
    );
  }
  await closeEmbeddedEngines();
}

async function benchAsks(label: string): Promise<void> {
  const config = join(dir, `config-${label}.json`);
  writeFileSync(
    config,
    JSON.stringify({
      llm: { provider: 'local-embedded', model, embedded: { ...(threads ? { threads } : {}), gpu: 'cpu' } },
    }),
  );
  for (const steps of [2, 4]) {
    const started = performance.now();
    const output = await new Promise<string>((resolve, reject) =>
      execFile(
        process.execPath,
        [
          cliPath,
          'ask',
          'Who directed Parasite?',
          '--json',
          '--config',
          config,
          '--max-steps',
          String(steps),
        ],
        {
          env: {
            PATH: process.env.PATH ?? '',
            XDG_DATA_HOME: join(dir, `home-${label}-${steps}`),
            DEEPSEARCH_NO_CACHE: '1',
            DEEPSEARCH_NO_RUNS: '1',
            DEEPSEARCH_LOCAL_LLM_URLS: 'off',
            DEEPSEARCH_SEARCH_PROVIDER: 'searxng',
            DEEPSEARCH_SEARXNG_URL: searxng.url,
            DEEPSEARCH_ALLOW_PRIVATE_NETWORK: '1',
            DEEPSEARCH_LLM_CONTEXT_TOKENS: '4096',
          },
          timeout: 600_000,
        },
        (error, stdout) => (error ? reject(error) : resolve(stdout)),
      ),
    );
    const result = JSON.parse(output);
    const calls = result.usage.llmCalls as number;
    console.log(
      `ask --max-steps ${steps}: ${Math.round(performance.now() - started)} ms in all, run ${result.durationMs} ms · ` +
        `${calls} LLM calls · ${Math.round(result.timing.llmMs / calls)} ms per call · ` +
        `${result.usage.promptTokens} prompt + ${result.usage.completionTokens} reply tokens`,
    );
  }
}
