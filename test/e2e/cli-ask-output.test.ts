import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type FakeOpenAiServer, startFakeOpenAi } from '../../src/testing/fake-openai-server.js';
import { alwaysPassingEvaluation } from '../helpers/passing-evaluation.js';
import { runBuiltCli } from '../helpers/run-built-cli.js';
import {
  repeatingAgent,
  startWeakModelWorld,
  type WeakModelWorld,
  weakModelQuestion,
} from '../helpers/weak-model-world.js';

let world: WeakModelWorld;
let llm: FakeOpenAiServer;
let dir: string;
beforeAll(async () => {
  world = await startWeakModelWorld();
  const reply = (object: unknown) => ({ content: JSON.stringify(object) });
  llm = await startFakeOpenAi({ routes: { ...repeatingAgent(world), ...alwaysPassingEvaluation(reply) } });
  dir = mkdtempSync(join(tmpdir(), 'deepsearch-ask-output-'));
});
afterAll(async () => {
  await world.close();
  await llm.close();
  rmSync(dir, { recursive: true, force: true });
});

const env = () => ({
  DEEPSEARCH_LLM_BASE_URL: `${llm.url}/v1`,
  DEEPSEARCH_LLM_MODEL: 'fake-model',
  DEEPSEARCH_SEARCH_PROVIDER: 'searxng',
  DEEPSEARCH_SEARXNG_URL: world.searxng.url,
  DEEPSEARCH_ALLOW_PRIVATE_NETWORK: '1',
});

describe('what deepsearch ask prints (built CLI)', () => {
  it('stdout starts with the answer and lists the sources as markdown footnote definitions', async () => {
    const run = await runBuiltCli(['ask', weakModelQuestion], env());
    expect(run.code).toBe(0);
    const lines = run.stdout.split('\n');
    expect(lines[0]).toBe('The Varnholt Observatory was founded in 1893 by the Kestrel Trust[^1].');
    const definition = lines.findIndex((line) => line.startsWith('[^1]: '));
    expect(lines[definition]).toBe(`[^1]: Varnholt Observatory <${world.readUrls[0]}>`);
    // The quote continues the definition: indented four spaces.
    expect(lines[definition + 1]).toBe(
      '    "The Varnholt Observatory was founded in 1893 by the Kestrel Trust"',
    );
    expect(run.stdout).not.toMatch(/^\[\^\d+\] /m);
  });

  it('-o writes the answer (or the JSON document) to a file and nothing to stdout', async () => {
    const file = join(dir, 'answer.md');
    const run = await runBuiltCli(['ask', weakModelQuestion, '-o', file], env());
    expect(run.code).toBe(0);
    expect(run.stdout).toBe('');
    expect(run.stderr).toContain(`answer written to ${file}`);
    const written = readFileSync(file, 'utf8');
    expect(written).toMatch(/^The Varnholt Observatory was founded in 1893/);
    expect(written).not.toContain('\u001b[');
    const json = join(dir, 'answer.json');
    expect((await runBuiltCli(['ask', weakModelQuestion, '--json', '-o', json], env())).stdout).toBe('');
    expect(JSON.parse(readFileSync(json, 'utf8')).references[0].url).toBe(world.readUrls[0]);
  });

  it('-o answer.json writes the JSON document without --json, as research -o report.json does', async () => {
    const file = join(dir, 'by-extension.json');
    const run = await runBuiltCli(['ask', weakModelQuestion, '-o', file], env());
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toBe('');
    const written = JSON.parse(readFileSync(file, 'utf8'));
    expect(written.answer).toMatch(/^The Varnholt Observatory was founded in 1893/);
    expect(written.references[0].url).toBe(world.readUrls[0]);
  });

  it('progress on a pipe is not cut at 100 characters; COLUMNS, when set, is the width', async () => {
    const think = `Search the founding of the Varnholt Observatory, ${'then who paid for its first telescope, '.repeat(6)}and stop.`;
    const agent = repeatingAgent(world);
    const thinking = await startFakeOpenAi({
      routes: {
        ...agent,
        agent_action: (request) => {
          const sent = agent.agent_action(request) as { content: string };
          return { content: JSON.stringify({ ...JSON.parse(sent.content), think }) };
        },
        ...alwaysPassingEvaluation((object: unknown) => ({ content: JSON.stringify(object) })),
      },
    });
    try {
      const thinkingEnv = { ...env(), DEEPSEARCH_LLM_BASE_URL: `${thinking.url}/v1` };
      const piped = await runBuiltCli(['ask', weakModelQuestion], thinkingEnv);
      expect(piped.code, piped.stderr).toBe(0);
      expect(think.length).toBeGreaterThan(250);
      expect(piped.stderr).toContain(think);
      const narrow = await runBuiltCli(['ask', weakModelQuestion], { ...thinkingEnv, COLUMNS: '120' });
      expect(narrow.code).toBe(0);
      const line = narrow.stderr.split('\n').find((text) => text.includes('Search the founding'));
      expect(line).toMatch(/…$/);
      expect(line!.length).toBeLessThanOrEqual(120);
    } finally {
      await thinking.close();
    }
  });

  it("OPENAI_BASE_URL is the openai provider's endpoint, as the OpenAI SDK reads it", async () => {
    const run = await runBuiltCli(['ask', weakModelQuestion], {
      OPENAI_API_KEY: 'sk-test-key',
      OPENAI_BASE_URL: `${llm.url}/v1`,
      DEEPSEARCH_LLM_MODEL: 'fake-model',
      DEEPSEARCH_SEARCH_PROVIDER: 'searxng',
      DEEPSEARCH_SEARXNG_URL: world.searxng.url,
      DEEPSEARCH_ALLOW_PRIVATE_NETWORK: '1',
    });
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toMatch(/^The Varnholt Observatory was founded in 1893/);
    const calls = llm.requests.filter((request) => request.headers.authorization === 'Bearer sk-test-key');
    expect(calls.length).toBeGreaterThan(0);
    expect(calls.every((request) => request.path === '/v1/chat/completions')).toBe(true);
  });

  it('-o into a folder that does not exist fails at once, before any LLM call', async () => {
    const before = llm.requests.length;
    const run = await runBuiltCli(['ask', weakModelQuestion, '-o', join(dir, 'missing', 'a.md')], env());
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/cannot write -o .*: no folder/);
    expect(llm.requests.length).toBe(before);
    expect(existsSync(join(dir, 'missing'))).toBe(false);
  });

  it('--json with the LLM unreachable prints a JSON error document and keeps the exit code', async () => {
    const run = await runBuiltCli(['ask', 'q', '--json', '--llm-max-retries', '0'], {
      DEEPSEARCH_LLM_BASE_URL: 'http://127.0.0.1:9/v1',
      DEEPSEARCH_LLM_MODEL: 'm',
      DEEPSEARCH_SEARXNG_URL: 'http://127.0.0.1:9',
    });
    expect(run.code).toBe(3);
    const document = JSON.parse(run.stdout);
    expect(document.error).toMatchObject({ code: 'provider_unreachable', exitCode: 3 });
    expect(document.error.message).toContain('cannot reach the LLM server');
    expect(run.stderr.trim().split('\n')).toHaveLength(1);
  });
});
