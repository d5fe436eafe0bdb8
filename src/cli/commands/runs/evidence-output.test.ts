import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { createRunStore } from '../../../runs/run-store.js';
import { snapshotOf } from '../../../runs/source-snapshot.js';
import { toAsyncRunStore } from '../../../scale/async-run-store.js';
import type { CliIo } from '../../io/cli-io.js';
import { printEvidence, printSource } from './evidence-output.js';

const text = 'The observatory opened in 1901. It closed in 1950.';

async function storedRun() {
  const store = toAsyncRunStore(
    createRunStore({ file: ':memory:', retention: { maxRuns: 10, maxAgeDays: 10 } }),
  );
  const run = {
    id: 'run-x',
    owner: 'local',
    source: 'cli' as const,
    mode: 'search',
    question: 'When?',
    options: {},
    settings: {},
  };
  await store.begin(run, 'running');
  const references = [
    { index: 1, url: 'https://obs.example/', title: 'Obs', quote: 'It closed in 1950', quoteKind: 'exact' },
  ];
  const page = {
    url: 'https://obs.example/',
    title: 'Obs',
    text,
    markdown: text,
    step: 1,
    fetchedAt: '2026-12-05T10:20:00.000Z',
    status: 200,
  };
  await store.finish(
    'run-x',
    {
      status: 'completed',
      result: { answer: 'It closed in 1950.[^1]', references },
      sources: [snapshotOf(page)],
    },
    0,
  );
  return { store, record: (await store.get('run-x'))! };
}

function io(tty: boolean, env: Record<string, string> = {}) {
  let out = '';
  const value: CliIo = {
    argv: [],
    env,
    cwd: '/',
    stdout: { write: (chunk: string) => (out += chunk), isTTY: tty, columns: 100 } as CliIo['stdout'],
    stderr: { write: () => true } as unknown as CliIo['stderr'],
    stdin: Readable.from([]) as CliIo['stdin'],
    signal: new AbortController().signal,
  };
  return { io: value, out: () => out };
}

describe('runs source and runs evidence output', () => {
  it('marks the quote with >>> <<< when piped, and highlights it on a terminal', async () => {
    const { store, record } = await storedRun();
    const piped = io(false);
    await printSource(piped.io, store, record, '1');
    expect(piped.out()).toContain('read      2026-12-05 10:20 UTC (HTTP 200)');
    expect(piped.out()).toContain('The observatory opened in 1901. >>>It closed in 1950<<<.');
    // Node's styleText colours only when this process's stdout could (FORCE_COLOR stands in for a terminal).
    const forced = process.env.FORCE_COLOR;
    process.env.FORCE_COLOR = '1';
    const terminal = io(true);
    try {
      await printSource(terminal.io, store, record, '1');
    } finally {
      if (forced === undefined) delete process.env.FORCE_COLOR;
      else process.env.FORCE_COLOR = forced;
    }
    expect(terminal.out()).not.toContain('>>>');
    expect(terminal.out()).toMatch(/1901\. \u001b\[[\d;]+m.*It closed in 1950\u001b\[[\d;]+m/);
    const noColour = io(true, { NO_COLOR: '1' });
    await printSource(noColour.io, store, record, '1');
    expect(noColour.out()).toContain('>>>It closed in 1950<<<');
  });

  it('lists the claim with its quote, source, read time and check', async () => {
    const { store, record } = await storedRun();
    const piped = io(false);
    await printEvidence(piped.io, store, record, {});
    expect(piped.out()).toContain('[1] It closed in 1950.');
    expect(piped.out()).toContain('    read      2026-12-05 10:20 UTC');
    expect(piped.out()).toContain(
      '  1. Obs https://obs.example/ (read 2026-12-05 10:20 UTC, HTTP 200, sha-256 ',
    );
  });
});
