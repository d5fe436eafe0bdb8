import { afterEach, describe, expect, it } from 'vitest';
import { type FakeOpenAiServer, startFakeOpenAi } from '../../src/testing/fake-openai-server.js';
import { runBuiltCli } from '../helpers/run-built-cli.js';

const llmKey = 'sk-cli-canary-93b1f0';
let llm: FakeOpenAiServer | undefined;
afterEach(async () => {
  await llm?.close();
  llm = undefined;
});

const env = (server: FakeOpenAiServer, extra: Record<string, string> = {}) => ({
  DEEPSEARCH_LLM_BASE_URL: `${server.url}/v1`,
  DEEPSEARCH_LLM_MODEL: 'fake-model',
  DEEPSEARCH_LLM_API_KEY: llmKey,
  DEEPSEARCH_LLM_MAX_RETRIES: '0',
  DEEPSEARCH_SEARCH_PROVIDER: 'duckduckgo',
  ...extra,
});

describe('deepsearch ask with hostile upstreams and input (built CLI)', () => {
  it('an LLM error that echoes the key is printed without it, with and without --debug', async () => {
    llm = await startFakeOpenAi({
      respond: (request) => ({
        status: 500,
        body: { error: { message: `upstream failure for ${request.headers.authorization}` } },
      }),
    });
    for (const args of [
      ['ask', 'Who won?'],
      ['ask', 'Who won?', '--debug'],
    ]) {
      const run = await runBuiltCli(args, env(llm));
      expect(run.code).toBe(3);
      expect(run.stderr).toContain('upstream failure for Bearer [redacted]');
      expect(`${run.stdout}${run.stderr}`).not.toContain(llmKey);
    }
    expect(llm.requests.length).toBeGreaterThan(0);
  }, 60_000);

  it('a question larger than the context budget fails with exit 2 before any LLM call', async () => {
    llm = await startFakeOpenAi({});
    const run = await runBuiltCli(['ask', 'word '.repeat(12_000)], env(llm));
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(
      /^deepsearch: error: the question is too long: about \d+ tokens, at most 8192/,
    );
    expect(llm.requests).toEqual([]);
  }, 30_000);

  it('credentials inside a base URL are refused with exit 2, and never printed', async () => {
    llm = await startFakeOpenAi({});
    const withCredentials = `http://admin:hunter2-secret@127.0.0.1:${new URL(llm.url).port}/v1`;
    for (const args of [
      ['ask', 'Who won?'],
      ['ask', 'Who won?', '--debug'],
    ]) {
      const run = await runBuiltCli(args, env(llm, { DEEPSEARCH_LLM_BASE_URL: withCredentials }));
      expect(run.code).toBe(2);
      expect(run.stderr).toMatch(/llm\.baseURL.*must not contain credentials/);
      expect(run.stderr).not.toContain('hunter2-secret');
    }
    expect(llm.requests).toEqual([]);
  }, 60_000);
});
