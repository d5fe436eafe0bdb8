import { createHash, randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type FakeHttpServer, startFakeHttpServer } from '../../src/testing/fake-http-server.js';
import { runBuiltCli } from '../helpers/run-built-cli.js';
import { buildTinyGguf } from '../helpers/tiny-gguf.js';

/**
 * Model files stay where they belong and are what they claim (the built CLI, a model server on
 * 127.0.0.1): two pulls at once install one verified file, a web page is never installed as a
 * model, a malformed model file is named at load, and `remove`/`use` never reach outside the folder.
 */
const model = buildTinyGguf({ seed: 11 });
const sha256 = createHash('sha256').update(model).digest('hex');
const page = Buffer.from(
  '<!DOCTYPE html><html><head><title>tiny.gguf · Models</title></head><body>card</body></html>',
);
let server: FakeHttpServer;

beforeAll(async () => {
  server = await startFakeHttpServer(async (request, response) => {
    if (request.path === '/card/tiny.gguf') {
      response.writeHead(200, { 'content-type': 'text/html' }).end(page);
      return;
    }
    if (request.path !== '/slow/tiny.gguf') {
      response.writeHead(404).end();
      return;
    }
    // Slowly (about 1.5 s for the file), so two pulls started together overlap; ranges honoured.
    const start = Number(/^bytes=(\d+)-$/.exec(String(request.headers.range ?? ''))?.[1] ?? 0);
    const body = model.subarray(start);
    response.writeHead(start > 0 ? 206 : 200, {
      'content-type': 'application/octet-stream',
      'content-length': String(body.length),
      ...(start > 0 ? { 'content-range': `bytes ${start}-${model.length - 1}/${model.length}` } : {}),
    });
    const step = Math.ceil(body.length / 30);
    for (let at = 0; at < body.length; at += step) {
      if (!response.write(body.subarray(at, at + step)))
        await new Promise((resolve) => response.once('drain', resolve));
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    response.end();
  });
});

afterAll(async () => {
  await server?.close();
});

function home() {
  const dataHome = mkdtempSync(join(tmpdir(), 'deepsearch-model-files-'));
  const modelsDir = join(dataHome, 'deepsearch', 'models');
  return { env: { XDG_DATA_HOME: dataHome, DEEPSEARCH_ALLOW_PRIVATE_NETWORK: '1' }, modelsDir, dataHome };
}

describe('model files (built CLI)', () => {
  it('two pulls at once over a leftover .part: one downloads and verifies, the other waits; the file installed is the right one', async () => {
    const { env, modelsDir } = home();
    mkdirSync(modelsDir, { recursive: true });
    // A part left by an earlier pull of another file: resuming on it would install a corrupt model.
    writeFileSync(join(modelsDir, 'tiny.gguf.part'), randomBytes(100_000));
    const url = `${server.url}/slow/tiny.gguf`;
    const [first, second] = await Promise.all([
      runBuiltCli(['model', 'pull', url, '--sha256', sha256], env, { timeoutMs: 60_000 }),
      runBuiltCli(['model', 'pull', url, '--sha256', sha256], env, { timeoutMs: 60_000 }),
    ]);
    expect(first.code, first.stderr).toBe(0);
    expect(second.code, second.stderr).toBe(0);
    const stderr = [first.stderr, second.stderr];
    expect(stderr.filter((text) => text.includes('SHA-256 verified'))).toHaveLength(1);
    expect(
      stderr.filter((text) => /another pull of tiny is running \(process \d+\); waiting for it/.test(text)),
    ).toHaveLength(1);
    expect(stderr.filter((text) => text.includes('tiny is already downloaded'))).toHaveLength(1);
    expect(first.stdout.trim()).toBe(join(modelsDir, 'tiny.gguf'));
    expect(second.stdout.trim()).toBe(join(modelsDir, 'tiny.gguf'));
    const installed = readFileSync(join(modelsDir, 'tiny.gguf'));
    expect(createHash('sha256').update(installed).digest('hex')).toBe(sha256);
    expect(readdirSync(modelsDir).sort()).toEqual(['tiny.gguf']);
  }, 120_000);

  it('a pull without --sha256 of a URL that serves a web page installs nothing and says it is not a model', async () => {
    const { env, modelsDir } = home();
    const run = await runBuiltCli(['model', 'pull', `${server.url}/card/tiny.gguf`], env, {
      timeoutMs: 60_000,
    });
    expect(run.code).not.toBe(0);
    expect(run.stderr).toContain(
      `the file downloaded from ${server.url}/card/tiny.gguf is not a valid GGUF model: it does not start with the GGUF signature`,
    );
    expect(run.stderr).not.toMatch(/unexpected failure|\n\s+at /);
    expect(run.stdout).toBe('');
    expect(existsSync(modelsDir) ? readdirSync(modelsDir) : []).toEqual([]);
  }, 60_000);

  it('a malformed model file given as llm.model is named as not a valid model, before anything loads', async () => {
    const { env, dataHome } = home();
    const file = join(dataHome, 'broken.gguf');
    writeFileSync(file, model.subarray(0, 300));
    const config = join(dataHome, 'config.json');
    writeFileSync(config, JSON.stringify({ llm: { provider: 'local-embedded', model: file } }));
    const run = await runBuiltCli(['ask', 'Who directed Parasite?', '--config', config], env, {
      timeoutMs: 60_000,
    });
    expect(run.code).not.toBe(0);
    expect(run.stderr).toContain(
      `${file} is not a valid GGUF model: its header is cut short (the file is truncated); delete it and download the model again`,
    );
    expect(run.stderr).not.toMatch(/unexpected failure|\n\s+at /);
  }, 60_000);

  it('model remove and use refuse a name with a path in it, and the file outside is untouched', async () => {
    const { env, dataHome } = home();
    const victim = join(dataHome, 'victim.gguf');
    writeFileSync(victim, 'important');
    for (const action of ['remove', 'use']) {
      const run = await runBuiltCli(['model', action, '../../victim'], env);
      expect(run.code, run.stderr).toBe(2);
      expect(run.stderr).toContain("'../../victim' is not a model name: a name has no '/', '\\' or '..'");
    }
    expect(readFileSync(victim, 'utf8')).toBe('important');
  }, 60_000);
});
