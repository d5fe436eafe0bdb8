import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FakeHttpServer } from '../../src/testing/fake-http-server.js';
import { embeddedRuntimeAvailable } from '../helpers/embedded-runtime.js';
import { startFakeSearxng } from '../helpers/fake-searxng-server.js';
import { startFakeWeb } from '../helpers/fake-web-server.js';
import { runBuiltCli } from '../helpers/run-built-cli.js';
import { buildTinyGguf } from '../helpers/tiny-gguf.js';

// The embedded model with its default threads (no DEEPSEARCH_LLM_THREADS) on a machine where
// another process holds a core: llama.cpp's spinning threads used to stall every token.
const available = await embeddedRuntimeAvailable();
const model = buildTinyGguf();
const question = 'Who directed Parasite?';
let dir: string;
let web: FakeHttpServer;
let searxng: FakeHttpServer;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'deepsearch-embedded-threads-'));
  web = await startFakeWeb({
    pages: {
      '/parasite': { html: '<html><body><p>Parasite is a 2019 film by Bong Joon-ho.</p></body></html>' },
    },
  });
  searxng = await startFakeSearxng({
    results: () => [
      { url: `${web.url}/parasite`, title: 'Parasite (film)', content: 'A 2019 film by Bong Joon-ho.' },
    ],
  });
});

afterAll(async () => {
  await Promise.all([web?.close(), searxng?.close()]);
});

/** A fresh data directory and the fake search; threads left to their default. */
function environment(): Record<string, string> {
  return {
    XDG_DATA_HOME: mkdtempSync(join(dir, 'home-')),
    DEEPSEARCH_LLM_GPU: 'cpu',
    DEEPSEARCH_LLM_CONTEXT_TOKENS: '4096',
    DEEPSEARCH_SEARCH_PROVIDER: 'searxng',
    DEEPSEARCH_SEARXNG_URL: searxng.url,
    DEEPSEARCH_ALLOW_PRIVATE_NETWORK: '1',
  };
}

/** Another process spinning on one core for the test's length, as a server's own work would. */
async function withBusyCore<T>(work: () => Promise<T>): Promise<T> {
  const loop: ChildProcess = spawn(process.execPath, ['-e', 'for (;;) {}'], { stdio: 'ignore' });
  try {
    return await work();
  } finally {
    loop.kill('SIGKILL');
  }
}

describe.skipIf(!available)('the embedded model beside a busy core (built CLI, tiny random GGUF)', () => {
  it('a 3-step ask with default settings ends well within a minute while a busy loop holds a core', async () => {
    const file = join(dir, 'busy.gguf');
    writeFileSync(file, model);
    const config = join(dir, 'busy.config.json');
    writeFileSync(config, JSON.stringify({ llm: { provider: 'local-embedded', model: file } }));
    const started = Date.now();
    const run = await withBusyCore(() =>
      runBuiltCli(['ask', question, '--config', config, '--max-steps', '3', '--json'], environment(), {
        timeoutMs: 120_000,
      }),
    );
    const seconds = (Date.now() - started) / 1000;
    expect(run.code, run.stderr).toBe(0);
    // 3 steps used to take more than 9 minutes with every math core spinning.
    expect(seconds).toBeLessThan(60);
    expect(run.stderr).toMatch(/local model .*busy\.gguf on CPU \(\d+ threads,/);
    const output = JSON.parse(run.stdout);
    expect(output.usage.byRole.agent.calls).toBeGreaterThanOrEqual(1);
  }, 150_000);

  it('doctor says how many threads and why; --llm-threads sets them', async () => {
    const file = join(dir, 'doctor.gguf');
    writeFileSync(file, model);
    const env = { ...environment(), DEEPSEARCH_LLM_PROVIDER: 'local-embedded', DEEPSEARCH_LLM_MODEL: file };
    const chosen = await withBusyCore(() => runBuiltCli(['doctor'], env, { timeoutMs: 120_000 }));
    const line = chosen.stdout.split('\n').find((row) => row.includes('doctor.gguf'));
    expect(line, chosen.stdout).toMatch(/on CPU \(\d+ threads\).*writes [\d.]+ tokens\/s; threads: /);
    expect(line).toMatch(
      /threads: (default: \d+ math cores less one|the machine has one math core|\d+ threads wrote)/,
    );
    const set = await runBuiltCli(['doctor', '--llm-threads', '1'], env, { timeoutMs: 120_000 });
    expect(set.stdout).toMatch(
      /doctor\.gguf .*on CPU \(1 threads\).*threads: set by --llm-threads or DEEPSEARCH_LLM_THREADS/,
    );
  }, 300_000);
});

describe('model pull and use take a path to a .gguf (built CLI)', () => {
  it('registers the file by its name (a link, not a copy), makes it the default, and removes only the link', async () => {
    const env = environment();
    const modelsDir = join(env.XDG_DATA_HOME!, 'deepsearch', 'models');
    const own = join(dir, 'my-tiny.gguf');
    writeFileSync(own, model);
    const pulled = await runBuiltCli(['model', 'pull', own], env);
    expect(pulled.code, pulled.stderr).toBe(0);
    expect(pulled.stdout.trim()).toBe(join(modelsDir, 'my-tiny.gguf'));
    expect(pulled.stderr).toContain(`my-tiny.gguf registered: a link to ${own} in ${modelsDir}`);
    const again = await runBuiltCli(['model', 'pull', own], env);
    expect(again.code, again.stderr).toBe(0);

    const other = join(dir, 'other-tiny.gguf');
    writeFileSync(other, model);
    const used = await runBuiltCli(['model', 'use', other], env);
    expect(used.code, used.stderr).toBe(0);
    expect(used.stdout).toContain(
      `other-tiny.gguf is now the default local model (${join(modelsDir, 'other-tiny.gguf')})`,
    );
    const list = await runBuiltCli(['model', 'list', '--json'], env);
    expect(JSON.parse(list.stdout).installed).toEqual([
      expect.objectContaining({ name: 'my-tiny.gguf', sizeBytes: model.length, isDefault: false }),
      expect.objectContaining({ name: 'other-tiny.gguf', sizeBytes: model.length, isDefault: true }),
    ]);
    // By name afterwards, like a pulled model.
    expect((await runBuiltCli(['model', 'use', 'my-tiny'], env)).stdout).toContain(
      'my-tiny.gguf is now the default local model',
    );
    const removed = await runBuiltCli(['model', 'remove', 'other-tiny'], env);
    expect(removed.stdout).toContain('removed other-tiny.gguf');
    expect(existsSync(other)).toBe(true);
    expect(existsSync(join(modelsDir, 'other-tiny.gguf'))).toBe(false);

    const notModel = join(dir, 'notes.gguf');
    writeFileSync(notModel, 'not a model at all');
    const refused = await runBuiltCli(['model', 'use', notModel], env);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain(`${notModel} is not a valid GGUF model`);
    const missing = await runBuiltCli(['model', 'pull', join(dir, 'nowhere.gguf')], env);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain(`the model file ${join(dir, 'nowhere.gguf')} does not exist`);
  }, 120_000);
});
