/**
 * `npm run bench:weak-model [-- --cli OTHER/dist/cli/main.js]`: the built CLI (and, to compare,
 * another build such as main's) answers with a weak model that repeats itself (the e2e test's
 * scripted model, test/helpers/weak-model-world.ts) against a fake SearXNG and web on 127.0.0.1.
 * Prints, per model and per build, the steps, LLM calls, tokens (estimated from request sizes, as
 * a server that counts them would) and why the run stopped. Counts, not timings: load-independent.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { startFakeOpenAi } from '../src/testing/fake-openai-server.js';
import { alwaysPassingEvaluation } from '../test/helpers/passing-evaluation.js';
import {
  repeatingAgent,
  startWeakModelWorld,
  type WeakModelWorld,
  weakModelQuestion,
} from '../test/helpers/weak-model-world.js';

const { values } = parseArgs({ options: { cli: { type: 'string', multiple: true } } });
const builds = [fileURLToPath(new URL('../dist/cli/main.js', import.meta.url)), ...(values.cli ?? [])].map(
  (path) => resolve(path),
);
const models = { repeating: {}, stubborn: { stubborn: true } } as const;
const reply = (object: unknown) => ({ content: JSON.stringify(object) });

async function oneRun(world: WeakModelWorld, cli: string, model: keyof typeof models) {
  const llm = await startFakeOpenAi({
    routes: { ...repeatingAgent(world, models[model]), ...alwaysPassingEvaluation(reply) },
  });
  const data = mkdtempSync(join(tmpdir(), 'bench-weak-model-'));
  try {
    const stdout = await runCli(cli, {
      DEEPSEARCH_LLM_BASE_URL: `${llm.url}/v1`,
      DEEPSEARCH_LLM_MODEL: 'fake-model',
      DEEPSEARCH_SEARCH_PROVIDER: 'searxng',
      DEEPSEARCH_SEARXNG_URL: world.searxng.url,
      DEEPSEARCH_ALLOW_PRIVATE_NETWORK: '1',
      XDG_DATA_HOME: data,
    });
    const result = JSON.parse(stdout);
    return {
      steps: result.steps,
      llmCalls: result.usage.llmCalls,
      totalTokens: result.usage.totalTokens,
      stoppedBy: result.budget.exhausted ?? 'answer accepted',
    };
  } finally {
    await llm.close();
    rmSync(data, { recursive: true, force: true });
  }
}

function runCli(cli: string, env: Record<string, string>): Promise<string> {
  return new Promise((done, fail) => {
    execFile(
      process.execPath,
      [cli, 'ask', weakModelQuestion, '--json', '--quiet'],
      {
        env: {
          PATH: process.env.PATH ?? '',
          NO_COLOR: '1',
          DEEPSEARCH_NO_CACHE: '1',
          DEEPSEARCH_NO_RUNS: '1',
          DEEPSEARCH_LOCAL_LLM_URLS: 'off',
          ...env,
        },
        maxBuffer: 64 * 1024 * 1024,
      },
      (error, stdout, stderr) => {
        if (error) fail(new Error(`${cli} exited ${error.code}: ${stderr.slice(-2000)}`));
        else done(stdout);
      },
    );
  });
}

const world = await startWeakModelWorld();
try {
  for (const model of Object.keys(models) as Array<keyof typeof models>) {
    for (const cli of builds) {
      const row = await oneRun(world, cli, model);
      console.log(JSON.stringify({ model, cli, ...row }));
    }
  }
} finally {
  await world.close();
}
