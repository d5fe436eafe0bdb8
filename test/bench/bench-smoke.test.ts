import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

// Benchmarks are not run by CI, so nothing else would notice one that stopped matching the agent
// (a new LLM call, a changed route): run the end-to-end ones once, tiny, and check they still work.
const root = fileURLToPath(new URL('../..', import.meta.url));

function run(command: string, args: string[], env: Record<string, string>): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile(
      command,
      args,
      { cwd: root, env: { ...process.env, ...env }, timeout: 60_000 },
      (error, stdout, stderr) => {
        if (error) reject(new Error(`${args.join(' ')} failed: ${stderr || error.message}`));
        else resolve(stdout);
      },
    );
  });
}

describe('benchmarks still run against the current agent', () => {
  it('bench:ask answers end to end through the built CLI', async () => {
    const tsx = fileURLToPath(new URL('../../node_modules/.bin/tsx', import.meta.url));
    const output = await run(tsx, ['bench/ask-run.ts'], { BENCH_RUNS: '1', BENCH_LLM_LATENCY_MS: '1' });
    expect(output).toMatch(/steps\s+6\b/);
    expect(output).toMatch(/references\s+3\b/);
  }, 60_000);

  it('bench:server completes its streams and async jobs without errors', async () => {
    const tsx = fileURLToPath(new URL('../../node_modules/.bin/tsx', import.meta.url));
    const output = await run(tsx, ['bench/server-bench.mjs'], {
      BENCH_SIZES: '3',
      BENCH_LATENCY_MS: '1',
      BENCH_ASYNC_JOBS: '4',
      BENCH_ASYNC_RESEARCH_JOBS: '1',
      BENCH_ASYNC_MAX_CONCURRENT: '2',
      BENCH_ASYNC_RECONNECTS: '1',
    });
    expect(output).toMatch(/^\s+3\s+3\s+0\s/m);
    expect(output).toMatch(/^queue check .*: OK$/m);
    expect(output).toMatch(/^search\s+4\s+4\s+0\s/m);
    expect(output).toMatch(/^research\s+1\s+1\s+0\s/m);
    expect(output).toMatch(
      /SSE events == stored events for 5\/5 jobs accepted .* 2 clients reconnected 4 times with Last-Event-ID: 0 lost, 0 duplicated/,
    );
  }, 60_000);

  it('bench:research covers every section with sections in parallel', async () => {
    const tsx = fileURLToPath(new URL('../../node_modules/.bin/tsx', import.meta.url));
    const output = await run(tsx, ['bench/research-bench.ts'], { BENCH_LLM_LATENCY_MS: '1' });
    expect(output).toMatch(/mean section coverage\s+1\.00\s+1\.00/);
    expect(output).toMatch(/max concurrent LLM calls\s+1\s+[23]\b/);
  }, 60_000);
});
