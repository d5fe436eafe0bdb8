import OpenAI from 'openai';
import { describe, expect, it } from 'vitest';
import { startFakeHttpServer } from '../../src/testing/fake-http-server.js';
import { startFakeOpenAi } from '../../src/testing/fake-openai-server.js';
import { runBuiltCli } from '../helpers/run-built-cli.js';
import { serveBuiltCli } from '../helpers/serve-built-cli.js';

const apiKey = 'sk-e2e-serve-0123456789';

describe('deepsearch serve (built CLI)', () => {
  it('serves the API with a key, answers through the openai client, logs JSON lines, and stops cleanly on SIGTERM', async () => {
    const llm = await startFakeOpenAi({
      routes: {
        agent_action: [
          {
            content: JSON.stringify({
              think: 'Trivial.',
              action: 'answer',
              answer: { text: '2', references: [] },
            }),
          },
        ],
      },
    });
    const server = await serveBuiltCli({
      DEEPSEARCH_LLM_BASE_URL: `${llm.url}/v1`,
      DEEPSEARCH_LLM_MODEL: 'fake-model',
      DEEPSEARCH_API_KEYS: apiKey,
      DEEPSEARCH_NO_RUNS: '1',
    });
    try {
      const client = new OpenAI({ baseURL: `${server.url}/v1`, apiKey, maxRetries: 0 });
      const completion = await client.chat.completions.create({
        model: 'deepsearch',
        messages: [{ role: 'user', content: 'What is 1+1?' }],
      });
      expect(completion.choices[0]!.message.content).toBe('2');
      llm.assertConsumed();
    } finally {
      await expect(server.stop()).resolves.toBe(0);
      await llm.close();
    }
    const { stdout, stderr } = server;
    const lines = stdout
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(lines).toEqual([
      expect.objectContaining({
        method: 'POST',
        path: '/v1/chat/completions',
        status: 200,
        outcome: 'answered',
      }),
    ]);
    expect(stdout + stderr).not.toContain(apiKey);
    // The web page's address is printed too, and why it cannot work here (no run store).
    expect(stderr).toContain(
      `deepsearch: web page at ${server.url}/ (it needs the run store: runs are off, --no-runs)\n`,
    );
    expect(stderr).toContain('stopping');
  });

  it('exits 2 with one clear line when the port is taken', async () => {
    const taken = await startFakeHttpServer((_request, response) => {
      response.end();
    });
    try {
      const port = new URL(taken.url).port;
      const run = await runBuiltCli(['serve', '--port', port], {
        DEEPSEARCH_LLM_BASE_URL: 'http://127.0.0.1:9/v1',
        DEEPSEARCH_LLM_MODEL: 'm',
        DEEPSEARCH_SEARCH_PROVIDER: 'duckduckgo',
      });
      expect(run.code).toBe(2);
      expect(run.stderr.trim()).toBe(
        `deepsearch: error: cannot listen on 127.0.0.1:${port} (EADDRINUSE): choose another --port`,
      );
    } finally {
      await taken.close();
    }
  });

  it('exits 2 at start, naming the variable, when no LLM is configured', async () => {
    const run = await runBuiltCli(['serve', '--port', '0']);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/^deepsearch: error: no LLM configured: set DEEPSEARCH_LLM_BASE_URL/);
  });
});
