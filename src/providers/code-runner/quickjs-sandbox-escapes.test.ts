import { describe, expect, it } from 'vitest';
import type { CodeRunResult } from '../spec/code-runner.js';
import { createQuickJsCodeRunner, type QuickJsCodeRunnerSettings } from './quickjs-code-runner.js';

// Hostile code: each attempt must come back as a failed run with a kind, and leave the host as it was.
const settings: QuickJsCodeRunnerSettings = {
  timeoutSeconds: 0.3,
  memoryMb: 16,
  stackKb: 64,
  maxOutputChars: 10_000,
  maxLogChars: 1000,
};
// For the time limit; everything else runs with enough time that a busy machine never times out.
const runner = createQuickJsCodeRunner(settings);
const patient = createQuickJsCodeRunner({ ...settings, timeoutSeconds: 30, memoryMb: 8 });

function failure(result: CodeRunResult) {
  if (result.ok) throw new Error(`expected a failed run, got ${JSON.stringify(result.output)}`);
  return result.error;
}

function hostSnapshot() {
  return {
    objectPrototype: Object.getOwnPropertyNames(Object.prototype).sort(),
    arrayPrototype: Object.getOwnPropertyNames(Array.prototype).sort(),
    functionPrototype: Object.getOwnPropertyNames(Function.prototype).sort(),
    globals: Object.getOwnPropertyNames(globalThis).sort(),
    env: { ...process.env },
    toString: Object.prototype.toString,
    map: Array.prototype.map,
    stringify: JSON.stringify,
  };
}

describe('createQuickJsCodeRunner: limits', () => {
  it('stops an infinite loop at the time limit', async () => {
    const error = failure(await runner.run({ code: 'while (true) {}' }));
    expect(error).toEqual({ kind: 'timeout', message: 'the code ran longer than 300 ms of CPU time' });
  });

  it('stops a loop that catches everything, and one hidden in a promise job', async () => {
    const loop = 'for (;;) { try { while (true) {} } catch (error) {} }';
    expect(failure(await runner.run({ code: loop })).kind).toBe('timeout');
    const job = 'await null; while (true) {}';
    expect(failure(await runner.run({ code: job })).kind).toBe('timeout');
  });

  it('stops memory bombs of objects, buffers and strings at the memory limit', async () => {
    const bombs = [
      'const all = []; while (true) all.push({ n: all.length, row: [1, 2, 3] });',
      // Small objects: QuickJS cannot even make the error object and throws null.
      'const all = []; while (true) all.push([all.length]);',
      'const map = new Map(); let i = 0; while (true) map.set(i++, { i });',
      // Large strings and buffers escape QuickJS's own count; the WebAssembly memory's maximum holds.
      'const all = []; while (true) all.push(new Float64Array(100000));',
      "const all = []; while (true) all.push('x'.repeat(800000) + all.length);",
      "let text = 'x'; while (true) text += text;",
    ];
    for (const code of bombs) {
      expect(failure(await patient.run({ code })), code).toEqual({
        kind: 'memory',
        message: 'the code ran out of memory (limit 8 MB)',
      });
    }
    expect(await patient.run({ code: 'return new Array(1000).fill(1).length' })).toMatchObject({
      ok: true,
      output: 1000,
    });
  });

  it('reports a thrown null as what it is, also right after a run that ran out of memory', async () => {
    const thrownNull = {
      kind: 'runtime',
      message: 'the code threw null, not an Error: throw new Error("what went wrong") to say why it stopped',
    };
    expect(failure(await patient.run({ code: 'throw null;' }))).toEqual(thrownNull);
    expect(
      failure(await patient.run({ code: 'const all = []; while (true) all.push([all.length]);' })),
    ).toEqual({
      kind: 'memory',
      message: 'the code ran out of memory (limit 8 MB)',
    });
    expect(failure(await patient.run({ code: 'await null; throw null;' }))).toEqual(thrownNull);
  });

  it('refuses an output larger than the limit', async () => {
    const error = failure(await patient.run({ code: "return 'x'.repeat(50000)" }));
    expect(error).toEqual({
      kind: 'output-too-large',
      message: 'the result is 50002 characters of JSON; the limit is 10000',
    });
    const rows = failure(
      await patient.run({ code: 'return Array.from({ length: 5000 }, (_, i) => ({ i }))' }),
    );
    expect(rows.kind).toBe('output-too-large');
  });

  it('reports deep recursion as a stack overflow', async () => {
    const error = failure(
      await patient.run({ code: 'const down = (n) => down(n + 1) + 1; return down(0);' }),
    );
    expect(error).toEqual({
      kind: 'runtime',
      message: 'stack overflow: the code recursed too deep (stack limit 64 KB); use a loop',
    });
    const nested = failure(
      await patient.run({ code: 'let a = []; for (let i = 0; i < 100000; i++) a = [a]; return a;' }),
    );
    expect(nested.message).toMatch(/stack overflow/);
  });

  it('survives an overflow of the host stack inside the engine and runs the next code on a fresh one', async () => {
    // With a stack limit above what the host thread has, the overflow happens in WebAssembly
    // frames before QuickJS sees it: the run fails and the engine is replaced.
    const generous = createQuickJsCodeRunner({ ...settings, timeoutSeconds: 30, stackKb: 1024 });
    const error = failure(
      await generous.run({ code: 'const down = (n) => down(n + 1) + 1; return down(0);' }),
    );
    expect(error.message).toMatch(/stack overflow/);
    const next = await generous.run({ code: 'return [1, 2, 3].reduce((a, b) => a + b)' });
    expect(next).toMatchObject({ ok: true, output: 6 });
  });
});

describe('createQuickJsCodeRunner: no way out', () => {
  it('has no process, require, network, timers or engine modules', async () => {
    const code = `return [typeof process, typeof require, typeof module, typeof fetch, typeof XMLHttpRequest,
      typeof WebSocket, typeof setTimeout, typeof std, typeof os, typeof Deno, typeof Bun, typeof WebAssembly]`;
    const result = await patient.run({ code });
    expect(result).toMatchObject({ ok: true, output: Array(12).fill('undefined') });
  });

  it('fails to read process.env, require fs, import fs or fetch', async () => {
    const attempts = {
      env: 'return process.env',
      require: "return require('fs').readFileSync('/etc/passwd', 'utf8')",
      import: "const fs = await import('fs'); return fs.readFileSync('/etc/passwd', 'utf8')",
      importNode: "const fs = await import('node:fs'); return 1",
      fetch: "return await fetch('http://127.0.0.1/')",
      xhr: "const request = new XMLHttpRequest(); request.open('GET', 'http://127.0.0.1/'); return 1",
    };
    for (const [name, code] of Object.entries(attempts)) {
      const error = failure(await patient.run({ code }));
      expect(error.kind, name).toBe('runtime');
      expect(error.message, name).not.toMatch(/root:/);
    }
  });

  it('finds only the guest realm behind prototype tricks', async () => {
    const tricks = [
      "return this.constructor.constructor('return process')()",
      "return (() => {}).constructor('return process.env')()",
      "return Object.getPrototypeOf(async function () {}).constructor('return process')()",
      "return input.constructor.constructor('return require')()('fs')",
      "return console.log.constructor('return globalThis.process')().env",
    ];
    for (const code of tricks) {
      const error = failure(await patient.run({ code, input: { a: 1 } }));
      expect(error.kind, code).toBe('runtime');
      expect(error.message, code).toMatch(/ReferenceError|TypeError/);
    }
  });

  it('keeps prototype pollution inside the run that made it', async () => {
    const before = hostSnapshot();
    const pollute = `
      Object.prototype.polluted = 'yes';
      Object.prototype.toString = () => 'hijacked';
      Array.prototype.map = function () { return ['hijacked']; };
      JSON.stringify = () => '"hijacked"';
      globalThis.leaked = true;
      return [1, 2].map((n) => n);`;
    const polluted = await patient.run({ code: pollute });
    // The result is serialised with the built-ins captured before the code ran.
    expect(polluted).toMatchObject({ ok: true, output: ['hijacked'] });
    const clean = await patient.run({
      code: 'return [({}).polluted, typeof leaked, [1, 2].map((n) => n * 2)]',
    });
    expect(clean).toMatchObject({ ok: true, output: [null, 'undefined', [2, 4]] });
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(hostSnapshot()).toEqual(before);
  });

  it('leaves the host unchanged after every hostile run', async () => {
    const before = hostSnapshot();
    const hostile = [
      'while (true) {}',
      "let s = 'x'; while (true) s += s;",
      'const f = () => f(); return f();',
      "Object.defineProperty(Object.prototype, 'then', { get() { throw new Error('trap'); } }); return {};",
      "Error.prototype.toString = () => { while (true) {} }; throw new Error('x');",
      "Object.defineProperty(Array.prototype, '0', { set() {} }); console.log('lost'); return 1;",
      'globalThis.console = null; return 1;',
    ];
    for (const code of hostile) {
      const result = await runner.run({ code });
      expect(result.ms, code).toBeGreaterThanOrEqual(0);
    }
    expect(hostSnapshot()).toEqual(before);
    expect(await patient.run({ code: 'return 40 + 2' })).toMatchObject({ ok: true, output: 42 });
  });
});
