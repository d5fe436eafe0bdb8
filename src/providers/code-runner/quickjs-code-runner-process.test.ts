import { execFile, spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import type { CodeRunResult } from '../spec/code-runner.js';
import { createQuickJsCodeRunner, type QuickJsCodeRunnerSettings } from './quickjs-code-runner.js';

// The runner's own process: the model's code runs in a child process, never on this event loop.
const settings: QuickJsCodeRunnerSettings = {
  timeoutSeconds: 30,
  memoryMb: 16,
  stackKb: 64,
  maxOutputChars: 2000,
  maxLogChars: 300,
};
const runners = [createQuickJsCodeRunner(settings)];
const [runner] = runners as [ReturnType<typeof createQuickJsCodeRunner>];
afterAll(() => {
  for (const each of runners) each.close();
});

function failure(result: CodeRunResult) {
  if (result.ok) throw new Error(`expected a failed run, got ${JSON.stringify(result.output)}`);
  return result.error;
}

function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

async function until(condition: () => boolean): Promise<void> {
  for (let tries = 0; tries < 200 && !condition(); tries++) await new Promise((done) => setTimeout(done, 25));
}

describe('createQuickJsCodeRunner: a process of its own', () => {
  it('keeps this event loop running while the code loops, and stops the loop at its limit', async () => {
    const short = createQuickJsCodeRunner({ ...settings, timeoutSeconds: 1 });
    runners.push(short);
    expect(await short.run({ code: 'return 1' })).toMatchObject({ ok: true, output: 1 });
    let ticks = 0;
    const ticker = setInterval(() => ticks++, 10);
    try {
      const error = failure(await short.run({ code: 'while (true) {}' }));
      expect(error).toEqual({ kind: 'timeout', message: 'the code ran longer than 1 s of CPU time' });
    } finally {
      clearInterval(ticker);
    }
    // In-process, a synchronous guest loop would have let no tick through.
    expect(ticks).toBeGreaterThan(5);
  });

  it('gives the host an empty environment and Node permissions without writes or processes', async () => {
    const saved = { ...process.env };
    process.env.OPENAI_API_KEY = 'sk-test-not-for-the-sandbox';
    process.env.DEEPSEARCH_LLM_API_KEY = 'test-key';
    try {
      const fresh = createQuickJsCodeRunner(settings);
      runners.push(fresh);
      const wasm = createRequire(import.meta.url).resolve('@jitl/quickjs-ng-wasmfile-release-sync/wasm');
      const outside = ['/etc/passwd', fileURLToPath(import.meta.url), join(process.cwd(), 'package.json')];
      const host = await fresh.describeHost([wasm, ...outside]);
      expect(host.pid).not.toBe(process.pid);
      expect(host.env.filter((name) => /DEEPSEARCH|API_KEY|OPENAI/.test(name))).toEqual([]);
      expect(host.env).toEqual([]);
      expect(host.permissions).toEqual({
        enabled: true,
        fsRead: Object.fromEntries([[wasm, true], ...outside.map((path) => [path, false])]),
        fsWrite: false,
        childProcess: false,
        worker: false,
      });
    } finally {
      process.env = saved;
    }
  });

  it('reports a host killed during a run, and runs the next code in a new one', async () => {
    const { pid } = await runner.describeHost();
    const running = runner.run({ code: 'while (true) {}' });
    setTimeout(() => process.kill(pid, 'SIGKILL'), 50);
    const error = failure(await running);
    expect(error).toEqual({
      kind: 'runtime',
      message:
        'the sandbox process stopped during the run (killed by SIGKILL); the next run starts a new one',
    });
    expect(await runner.run({ code: 'return 6 * 7' })).toMatchObject({ ok: true, output: 42 });
    expect((await runner.describeHost()).pid).not.toBe(pid);
  });

  it('kills the host of a cancelled run; a queued run cancelled while waiting never starts', async () => {
    const { pid } = await runner.describeHost();
    const first = new AbortController();
    const second = new AbortController();
    let firstSettled = false;
    const running = runner.run({ code: 'while (true) {}', signal: first.signal }).finally(() => {
      firstSettled = true;
    });
    const queued = runner.run({ code: 'return 1', signal: second.signal });
    second.abort();
    expect(failure(await queued).kind).toBe('aborted');
    expect(firstSettled).toBe(false);
    first.abort();
    expect(failure(await running)).toEqual({ kind: 'aborted', message: 'the run was cancelled' });
    await until(() => !isRunning(pid));
    expect(isRunning(pid)).toBe(false);
    expect(await runner.run({ code: 'return [1, 2].length' })).toMatchObject({ ok: true, output: 2 });
  });

  it('runs a queued code in a new host when the running one is cancelled (not in the one being killed)', async () => {
    const { pid } = await runner.describeHost();
    const controller = new AbortController();
    const running = runner.run({ code: 'while (true) {}', signal: controller.signal });
    const queued = runner.run({ code: "return 'after'" });
    await new Promise((done) => setTimeout(done, 50));
    controller.abort();
    expect(failure(await running).kind).toBe('aborted');
    expect(await queued).toMatchObject({ ok: true, output: 'after' });
    expect((await runner.describeHost()).pid).not.toBe(pid);
  });

  it('runs two codes at once with a concurrency of 2', async () => {
    const pair = createQuickJsCodeRunner({ ...settings, concurrency: 2 });
    runners.push(pair);
    const controller = new AbortController();
    // The first loops until cancelled; the second still gets a host and finishes.
    const looping = pair.run({ code: 'while (true) {}', signal: controller.signal });
    expect(await pair.run({ code: "return 'second'" })).toMatchObject({ ok: true, output: 'second' });
    controller.abort();
    expect(failure(await looping).kind).toBe('aborted');
  });
});

const run = promisify(execFile);
const runnerModule = fileURLToPath(new URL('./quickjs-code-runner.ts', import.meta.url));

describe('createQuickJsCodeRunner: the host and the process that started it', () => {
  it('does not keep a process alive when idle, and dies with it', async () => {
    const script = `
      import { createQuickJsCodeRunner } from ${JSON.stringify(runnerModule)};
      const runner = createQuickJsCodeRunner(${JSON.stringify(settings)});
      const result = await runner.run({ code: 'return 2 + 3' });
      const { pid } = await runner.describeHost();
      console.log(JSON.stringify({ output: result.output, pid }));`;
    // Without unref the script would never end and execFile would time out.
    const { stdout } = await run(
      process.execPath,
      ['--import', 'tsx', '--input-type=module', '--eval', script],
      {
        timeout: 60_000,
      },
    );
    const { output, pid } = JSON.parse(stdout) as { output: number; pid: number };
    expect(output).toBe(5);
    await until(() => !isRunning(pid));
    expect(isRunning(pid)).toBe(false);
  });

  it('stops the code and ends the host when the process that started it is killed mid-run', async () => {
    const script = `
      import { createQuickJsCodeRunner } from ${JSON.stringify(runnerModule)};
      const runner = createQuickJsCodeRunner(${JSON.stringify(settings)});
      await runner.run({ code: 'return 1' });
      const { pid } = await runner.describeHost();
      console.log(JSON.stringify({ pid }));
      await runner.run({ code: 'while (true) {}' });`;
    const parent = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '--eval', script], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    const line = await new Promise<string>((resolve, reject) => {
      parent.stdout.once('data', (chunk: Buffer) => resolve(chunk.toString()));
      parent.once('exit', (code) => reject(new Error(`the script ended (${code}) before its host started`)));
    });
    const { pid } = JSON.parse(line) as { pid: number };
    // The guest loops with a 30 s limit; SIGKILL gives the parent no chance to stop it.
    await new Promise((done) => setTimeout(done, 300));
    expect(isRunning(pid)).toBe(true);
    parent.kill('SIGKILL');
    await until(() => !isRunning(pid));
    expect(isRunning(pid)).toBe(false);
  });
});
