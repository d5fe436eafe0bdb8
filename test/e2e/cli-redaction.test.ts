import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeOpenAi } from '../../src/testing/fake-openai-server.js';
import { alwaysPassingEvaluation } from '../helpers/passing-evaluation.js';
import { runBuiltCli } from '../helpers/run-built-cli.js';
import {
  repeatingAgent,
  startWeakModelWorld,
  type WeakModelWorld,
  weakModelQuestion,
} from '../helpers/weak-model-world.js';

let world: WeakModelWorld;
let dir: string;
beforeAll(async () => {
  world = await startWeakModelWorld();
  dir = mkdtempSync(join(tmpdir(), 'deepsearch-redaction-'));
});
afterAll(async () => {
  await world.close();
  rmSync(dir, { recursive: true, force: true });
});

const reply = (object: unknown) => ({ content: JSON.stringify(object) });

function env(llmUrl: string, key: string, runsFile: string): Record<string, string> {
  return {
    DEEPSEARCH_LLM_BASE_URL: `${llmUrl}/v1`,
    DEEPSEARCH_LLM_MODEL: 'fake-model',
    DEEPSEARCH_LLM_API_KEY: key,
    DEEPSEARCH_SEARCH_PROVIDER: 'searxng',
    DEEPSEARCH_SEARXNG_URL: world.searxng.url,
    DEEPSEARCH_NO_RUNS: '0',
    DEEPSEARCH_RUNS_FILE: runsFile,
  };
}

/** Every byte the run store wrote (database and write-ahead log). */
function storeBytes(file: string): string {
  return [file, `${file}-wal`]
    .filter((path) => existsSync(path))
    .map((path) => readFileSync(path).toString('latin1'))
    .join('');
}

describe('redaction of configured keys (built CLI)', () => {
  it('a placeholder key (Kestrel) is ordinary text: the answer and its quote keep the word', async () => {
    const llm = await startFakeOpenAi({
      apiKey: 'Kestrel',
      routes: { ...repeatingAgent(world), ...alwaysPassingEvaluation(reply) },
    });
    try {
      const runsFile = join(dir, 'placeholder.sqlite');
      const run = await runBuiltCli(
        ['ask', weakModelQuestion, '--json', '--allow-private-network'],
        env(llm.url, 'Kestrel', runsFile),
      );
      expect(run.code).toBe(0);
      const output = JSON.parse(run.stdout);
      expect(output.answer).toContain('by the Kestrel Trust');
      expect(output.references[0].quote).toContain('Kestrel Trust');
      expect(run.stdout + run.stderr).not.toContain('[redacted]');
      expect(storeBytes(runsFile)).toContain('Kestrel Trust');
    } finally {
      await llm.close();
    }
  });

  it('a real key reaches neither stdout, stderr nor the run store, even when the model writes it', async () => {
    const key = 'sk-proj-4f9a2b7c1d8e6f3a0b5c9d2e';
    const leaky = repeatingAgent(world);
    const llm = await startFakeOpenAi({
      apiKey: key,
      routes: {
        ...leaky,
        // A model that repeats what it was shown, the key included.
        final_answer: () =>
          reply({
            think: `My key is ${key}.`,
            answer: { text: `Founded in 1893; the key ${key} was used.`, references: [] },
          }),
        ...alwaysPassingEvaluation(reply),
      },
    });
    try {
      const runsFile = join(dir, 'real.sqlite');
      const run = await runBuiltCli(
        ['ask', weakModelQuestion, '--json', '--allow-private-network', '--max-steps', '2'],
        env(llm.url, key, runsFile),
      );
      expect(run.code).toBe(0);
      expect(llm.requests.some((request) => request.headers.authorization === `Bearer ${key}`)).toBe(true);
      expect(JSON.parse(run.stdout).answer).toContain('the key [redacted] was used');
      expect(run.stdout + run.stderr).not.toContain(key);
      const stored = storeBytes(runsFile);
      expect(stored.length).toBeGreaterThan(0);
      expect(stored).not.toContain(key);
      const shown = await runBuiltCli(['runs', 'list'], {
        DEEPSEARCH_NO_RUNS: '0',
        DEEPSEARCH_RUNS_FILE: runsFile,
      });
      expect(shown.stdout).not.toContain(key);
    } finally {
      await llm.close();
    }
  });
});
