import { createHash } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FakeHttpServer } from '../../src/testing/fake-http-server.js';
import { openBuiltCliTerminal } from '../helpers/built-cli-terminal.js';
import { embeddedRuntimeAvailable } from '../helpers/embedded-runtime.js';
import { startFakeModelServer } from '../helpers/fake-model-server.js';
import { startFakeSearxng } from '../helpers/fake-searxng-server.js';
import { startFakeWeb } from '../helpers/fake-web-server.js';
import { startRecordingProxy } from '../helpers/recording-proxy.js';
import { runBuiltCli } from '../helpers/run-built-cli.js';
import { serveBuiltCli } from '../helpers/serve-built-cli.js';
import { buildTinyGguf } from '../helpers/tiny-gguf.js';

// The whole CLI on a tiny random-weight model through the real node-llama-cpp path: the answers
// are noise (the model prefers "s" wherever the grammar lets it choose), the wiring is real.
const available = await embeddedRuntimeAvailable();
const model = buildTinyGguf();
const sha256 = createHash('sha256').update(model).digest('hex');
const question = 'Who directed Parasite?';
let dir: string;
let web: FakeHttpServer;
let searxng: FakeHttpServer;
let models: FakeHttpServer;
let manifest: string;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'deepsearch-embedded-e2e-'));
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
  models = await startFakeModelServer({ files: { '/tiny.gguf': model } });
  manifest = join(dir, 'manifest.json');
  writeFileSync(
    manifest,
    JSON.stringify([
      {
        name: 'tiny-test',
        title: 'Tiny random test model',
        url: `${models.url}/tiny.gguf`,
        file: 'tiny-test.gguf',
        sizeBytes: model.length,
        sha256,
        license: 'Apache-2.0',
        memoryGb: 0.1,
      },
    ]),
  );
});

afterAll(async () => {
  await Promise.all([web?.close(), searxng?.close(), models?.close()]);
});

/** A fresh data directory, the test manifest, small and single-threaded runs, the fake search. */
function environment(home = mkdtempSync(join(dir, 'home-'))): Record<string, string> {
  return {
    XDG_DATA_HOME: home,
    DEEPSEARCH_MODEL_MANIFEST: manifest,
    // One thread: ggml's spinning workers crawl on a loaded 2-core machine.
    DEEPSEARCH_LLM_THREADS: '1',
    DEEPSEARCH_LLM_GPU: 'cpu',
    DEEPSEARCH_LLM_CONTEXT_TOKENS: '4096',
    DEEPSEARCH_SEARCH_PROVIDER: 'searxng',
    DEEPSEARCH_SEARXNG_URL: searxng.url,
    DEEPSEARCH_ALLOW_PRIVATE_NETWORK: '1',
  };
}

const slow = { timeoutMs: 150_000 };

describe.skipIf(!available)('the embedded model from the built CLI (tiny random GGUF)', () => {
  it('answers a whole ask on the configured .gguf: grammar-constrained steps, a search, exit 0', async () => {
    const file = join(dir, 'configured.gguf');
    writeFileSync(file, model);
    const config = join(dir, 'embedded.config.json');
    writeFileSync(config, JSON.stringify({ llm: { provider: 'local-embedded', model: file } }));
    const searchesBefore = searxng.requests.length;
    const run = await runBuiltCli(
      ['ask', question, '--config', config, '--max-steps', '2', '--json'],
      environment(),
      slow,
    );
    expect(run.stderr).toMatch(
      /local model .*configured\.gguf on CPU \(1 threads, \d+-token window, loaded in/,
    );
    expect(run.stderr).toMatch(/about \d+:\d\d per step \(reads \d+ tokens\/s, writes [\d.]+ tokens\/s\)/);
    expect(run.code).toBe(0);
    const output = JSON.parse(run.stdout);
    expect(output.answer).toBe('s');
    expect(output.usage).toMatchObject({
      estimated: false,
      parseFailures: 0,
      byRole: { agent: { calls: 1 }, beast: { calls: 1 } },
    });
    expect(output.usage.byRole.agent.promptTokens).toBeGreaterThan(1000);
    expect(searxng.requests.length).toBeGreaterThan(searchesBefore);
  }, 180_000);

  it('serve answers concurrent requests from the one model it loaded at start', async () => {
    const file = join(dir, 'served.gguf');
    writeFileSync(file, model);
    const { XDG_DATA_HOME: _home, ...env } = environment();
    const server = await serveBuiltCli({
      ...env,
      DEEPSEARCH_LLM_PROVIDER: 'local-embedded',
      DEEPSEARCH_LLM_MODEL: file,
      DEEPSEARCH_MAX_STEPS: '1',
    });
    try {
      expect(server.stderr).toMatch(/local model .*served\.gguf on CPU/);
      const ask = () =>
        fetch(`${server.url}/v1/chat/completions`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ model: 'deepsearch', messages: [{ role: 'user', content: question }] }),
        }).then(async (response) => ({ status: response.status, body: await response.json() }));
      const answers = await Promise.all([ask(), ask()]);
      for (const answer of answers) {
        expect(answer.status).toBe(200);
        expect(answer.body.choices[0].message.content).toContain('s');
      }
    } finally {
      await server.stop();
    }
  }, 180_000);

  it('with no LLM and not in a terminal, the error names the command that downloads one', async () => {
    const run = await runBuiltCli(['ask', question], environment(), slow);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(
      /no LLM configured: .* or, with nothing else installed, run deepsearch model pull to download a local model \(/,
    );
    expect(run.stdout).toBe('');
  }, 60_000);

  it('model pull, list, use and remove manage the models folder', async () => {
    const env = environment();
    const modelsDir = join(env.XDG_DATA_HOME!, 'deepsearch', 'models');
    const pulled = await runBuiltCli(['model', 'pull'], env, slow);
    expect(pulled.code).toBe(0);
    expect(pulled.stdout.trim()).toBe(join(modelsDir, 'tiny-test.gguf'));
    expect(pulled.stderr).toContain(`downloading tiny-test (Tiny random test model, `);
    expect(pulled.stderr).toContain('SHA-256 verified');
    expect(readFileSync(join(modelsDir, 'tiny-test.gguf')).equals(model)).toBe(true);
    const again = await runBuiltCli(['model', 'pull', 'tiny-test'], env, slow);
    expect(again.stderr).toContain('tiny-test is already downloaded');
    const list = await runBuiltCli(['model', 'list', '--json'], env);
    expect(JSON.parse(list.stdout)).toMatchObject({
      modelsDir,
      installed: [{ name: 'tiny-test', file: 'tiny-test.gguf', sizeBytes: model.length, isDefault: true }],
      available: [{ name: 'tiny-test', license: 'Apache-2.0' }],
    });
    const unknown = await runBuiltCli(['model', 'pull', 'nope'], env);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain(
      "unknown model 'nope' (available: tiny-test, or a https URL of a .gguf file)",
    );
    const use = await runBuiltCli(['model', 'use', 'tiny-test'], env);
    expect(use.stdout).toContain('tiny-test is now the default local model');
    const removed = await runBuiltCli(['model', 'remove', 'tiny-test'], env);
    expect(removed.stdout).toContain('removed tiny-test.gguf');
    expect(existsSync(join(modelsDir, 'tiny-test.gguf'))).toBe(false);
    const missing = await runBuiltCli(['model', 'use', 'tiny-test'], env);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain(
      'the local model tiny-test is not downloaded: run deepsearch model pull tiny-test',
    );
  }, 180_000);

  it('model pull goes through the proxy HTTPS_PROXY / HTTP_PROXY name', async () => {
    const proxy = await startRecordingProxy();
    try {
      const env = {
        ...environment(),
        HTTP_PROXY: proxy.url,
        HTTPS_PROXY: proxy.url,
        // Set and empty: the loopback model server is reached through the test proxy too.
        NO_PROXY: '',
      };
      const pulled = await runBuiltCli(['model', 'pull', '--quiet'], env, slow);
      expect(pulled.code, pulled.stderr).toBe(0);
      expect(proxy.requests.map((request) => `${request.method} ${request.target}`)).toEqual([
        `GET ${models.url}/tiny.gguf`,
      ]);
    } finally {
      await proxy.close();
    }
  }, 60_000);

  it('--yes downloads the default model without asking, and the next run uses it offline', async () => {
    const env = environment();
    const downloadsBefore = models.requests.length;
    const first = await runBuiltCli(['ask', question, '--yes', '--max-steps', '1'], env, slow);
    expect(first.stderr).toContain('downloading tiny-test');
    expect(first.stderr).toContain('SHA-256 verified');
    expect(first.code).toBe(0);
    expect(first.stdout).toContain('s');
    expect(models.requests.length).toBe(downloadsBefore + 1);
    const second = await runBuiltCli(['ask', question, '--max-steps', '1'], env, slow);
    expect(second.code).toBe(0);
    expect(second.stderr).toContain('no LLM configured, using the local model tiny-test');
    expect(second.stderr).toContain('measured earlier');
    expect(models.requests.length).toBe(downloadsBefore + 1);
  }, 240_000);

  it('in a terminal, ask offers the download with its size, licence, folder and speed, and takes it on y', async () => {
    const env = environment();
    const modelsDir = join(env.XDG_DATA_HOME!, 'deepsearch', 'models');
    const declined = await inTerminal(['ask', question, '--max-steps', '1'], env, 'n');
    expect(declined.output).toContain('Download it now? [y/N]');
    expect(declined.code).toBe(2);
    expect(existsSync(join(modelsDir, 'tiny-test.gguf'))).toBe(false);

    const accepted = await inTerminal(['ask', question, '--max-steps', '1'], env, 'y');
    expect(accepted.output).toMatch(
      new RegExp(
        `tiny-test \\(Tiny random test model\\),\\s+${(model.length / 1000).toFixed(0)} kB, licence Apache-2.0, ` +
          `needs about 0.1 GB of memory, saved in ${modelsDir.replace(/[.]/g, '\\.')}\\.`,
      ),
    );
    expect(accepted.output).toMatch(/Roughly [\d.]+ tokens\/s written on this machine's CPU/);
    // The progress bar, redrawn in place: bytes, and the rate.
    expect(accepted.output).toMatch(/\r\x1b\[2K\[#+\] \d+ kB \/ \d+ kB/);
    expect(accepted.output).toContain('SHA-256 verified');
    expect(accepted.code).toBe(0);
    expect(readFileSync(join(modelsDir, 'tiny-test.gguf')).equals(model)).toBe(true);
  }, 240_000);
});

/**
 * Runs the built CLI in a real pseudo-terminal, answering its prompt with `answer` once it is
 * shown; returns everything the terminal showed and the exit code.
 */
async function inTerminal(
  args: string[],
  env: Record<string, string>,
  answer: string,
): Promise<{ code: number; output: string }> {
  const terminal = openBuiltCliTerminal(args, env);
  const timer = setTimeout(() => terminal.child.kill('SIGKILL'), 200_000);
  try {
    await terminal.waitFor('[y/N]', { timeoutMs: 200_000 });
    terminal.type(`${answer}\r`);
    return { code: (await terminal.exited) ?? 1, output: terminal.output() };
  } finally {
    clearTimeout(timer);
    terminal.child.stdin?.destroy();
  }
}
