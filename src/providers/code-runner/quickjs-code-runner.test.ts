import { describe, expect, it } from 'vitest';
import { InputError } from '../../core/errors/index.js';
import type { CodeRunResult } from '../spec/code-runner.js';
import { createQuickJsCodeRunner, type QuickJsCodeRunnerSettings } from './quickjs-code-runner.js';

// Time enough that a busy machine never turns these into timeouts; the limits have their own tests.
const settings: QuickJsCodeRunnerSettings = {
  timeoutSeconds: 30,
  memoryMb: 16,
  stackKb: 64,
  maxOutputChars: 2000,
  maxLogChars: 300,
};
const runner = createQuickJsCodeRunner(settings);

function failure(result: CodeRunResult) {
  if (result.ok) throw new Error(`expected a failed run, got ${JSON.stringify(result.output)}`);
  return result.error;
}

function success(result: CodeRunResult) {
  if (!result.ok) throw new Error(`expected a result, got ${result.error.kind}: ${result.error.message}`);
  return result;
}

const table = `| Country | Capital | Population (millions) |
|---|---|---|
| France | Paris | 68.2 |
| Germany | Berlin | 84.5 |
| Italy | Rome | 58.9 |
| Spain | Madrid | 48.6 |`;

describe('createQuickJsCodeRunner: computing', () => {
  it('parses a markdown table given as input, sums a column and ranks the rows', async () => {
    const code = `
      const rows = input.page.split('\\n')
        .filter((line) => line.startsWith('|') && !/^\\|\\s*-/.test(line))
        .slice(1)
        .map((line) => line.split('|').slice(1, -1).map((cell) => cell.trim()));
      const total = rows.reduce((sum, row) => sum + Number(row[2]), 0);
      const ranked = rows.toSorted((a, b) => Number(b[2]) - Number(a[2])).map((row) => row[0]);
      console.log('rows', rows.length);
      return { total: Math.round(total * 10) / 10, ranked };`;
    const result = success(await runner.run({ code, input: { page: table } }));
    expect(result.output).toEqual({ total: 260.2, ranked: ['Germany', 'France', 'Italy', 'Spain'] });
    expect(result.logs).toEqual(['rows 4']);
    expect(result.ms).toBeGreaterThanOrEqual(0);
  });

  it('gives the input as a global too, and as a deep copy the code cannot change on the host', async () => {
    const input = { dates: ['2024-01-15', '2024-03-01'], nested: { n: 1 } };
    const code = `
      input.nested.n = 99;
      const [a, b] = globalThis.input.dates.map((d) => new Date(d + 'T00:00:00Z'));
      return (b - a) / 86400000;`;
    expect(success(await runner.run({ code, input })).output).toBe(46);
    expect(input.nested.n).toBe(1);
  });

  it('returns text as a string and awaits a returned promise', async () => {
    expect(success(await runner.run({ code: "return 'km: ' + (26.2 * 1.609344).toFixed(1)" })).output).toBe(
      'km: 42.2',
    );
    const code =
      'const value = await new Promise((resolve) => resolve(21)); return Promise.resolve(value * 2);';
    expect(success(await runner.run({ code })).output).toBe(42);
  });

  it('bounds console.log output and keeps the result', async () => {
    const code = "for (let i = 0; i < 1000; i++) console.log('line', i, { i }); return 'done';";
    const result = success(await runner.run({ code }));
    expect(result.output).toBe('done');
    expect(result.logs.join('\n').length).toBeLessThan(settings.maxLogChars + 50);
    expect(result.logs.at(-1)).toMatch(/logs truncated/);
  });

  it('refuses a concurrency below one with an InputError', () => {
    expect(() => createQuickJsCodeRunner({ ...settings, concurrency: 0 })).toThrow(InputError);
    expect(() => createQuickJsCodeRunner({ ...settings, concurrency: 1.5 })).toThrow(/concurrency/);
  });

  it('refuses input that is not JSON data with an InputError', async () => {
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    await expect(runner.run({ code: 'return 1', input: cyclic })).rejects.toBeInstanceOf(InputError);
  });
});

describe('createQuickJsCodeRunner: mistakes in the code', () => {
  it('reports a syntax error with its line', async () => {
    const error = failure(await runner.run({ code: 'const a = 1;\nconst b = ;\nreturn a;' }));
    expect(error.kind).toBe('syntax');
    expect(error.message).toMatch(/SyntaxError: .*\(line 2\)/);
  });

  it('reports a thrown error with its name and message', async () => {
    const error = failure(await runner.run({ code: 'const rows = null;\nreturn rows.length;' }));
    expect(error).toEqual({
      kind: 'runtime',
      message: expect.stringMatching(/^TypeError: .*'length' of null/),
    });
    const custom = failure(await runner.run({ code: "throw new RangeError('no rows')" }));
    expect(custom).toEqual({ kind: 'runtime', message: expect.stringMatching(/^RangeError: no rows/) });
  });

  it('asks for a return when the code returns nothing, and refuses values that are not JSON', async () => {
    expect(failure(await runner.run({ code: '1 + 1' })).message).toMatch(/return/);
    expect(failure(await runner.run({ code: 'return () => 1' })).message).toMatch(/not JSON/);
    expect(failure(await runner.run({ code: 'return 10n' })).message).toMatch(/not JSON/);
  });

  it('reports a promise that never settles', async () => {
    const error = failure(await runner.run({ code: 'return new Promise(() => {})' }));
    expect(error).toMatchObject({ kind: 'runtime', message: expect.stringMatching(/never settled/) });
  });

  it('reports a cancelled run as aborted without running it', async () => {
    const controller = new AbortController();
    controller.abort();
    const error = failure(await runner.run({ code: 'return 1', signal: controller.signal }));
    expect(error.kind).toBe('aborted');
  });
});
