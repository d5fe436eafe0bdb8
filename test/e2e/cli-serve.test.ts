import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import OpenAI from 'openai';
import { describe, expect, it } from 'vitest';
import { startFakeHttpServer } from '../../src/testing/fake-http-server.js';
import { startFakeOpenAi } from '../../src/testing/fake-openai-server.js';
import { childEnv } from '../helpers/mcp-fixtures.js';
import { cliPath, runBuiltCli } from '../helpers/run-built-cli.js';
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
      DEEPSEARCH_LOG_FORMAT: 'json',
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
        level: 'info',
        role: 'serve',
        event: 'request',
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

  it('refuses a non-loopback --host without API keys, naming the flag that allows it', async () => {
    const llm = { DEEPSEARCH_LLM_BASE_URL: 'http://127.0.0.1:9/v1', DEEPSEARCH_LLM_MODEL: 'm' };
    for (const host of ['0.0.0.0', '::', '192.0.2.10']) {
      const run = await runBuiltCli(['serve', '--host', host, '--port', '0'], llm);
      expect(run.code, host).toBe(2);
      expect(run.stderr).toContain(`refusing to listen on ${host} without API keys`);
      expect(run.stderr).toContain('--allow-unauthenticated');
      expect(run.stderr).toContain('DEEPSEARCH_API_KEYS');
    }
    // The flag lets a wider bind start (nothing is sent to it).
    const child = spawn(
      process.execPath,
      [cliPath, 'serve', '--host', '0.0.0.0', '--port', '0', '--allow-unauthenticated'],
      { env: childEnv(llm), stdio: ['ignore', 'pipe', 'pipe'] },
    );
    let stderr = '';
    await new Promise<void>((resolve, reject) => {
      child.stderr.on('data', (chunk: Buffer) => {
        stderr += chunk.toString();
        if (stderr.includes('serving')) resolve();
      });
      child.once('exit', () => reject(new Error(`serve exited: ${stderr}`)));
    });
    expect(stderr).toMatch(/at http:\/\/0\.0\.0\.0:\d+\/v1/);
    const exited = once(child, 'exit');
    child.kill('SIGTERM');
    expect((await exited)[0]).toBe(0);
  });

  it('MCP read_url under --file-roots: one refusal for any path outside the roots, existing or not', async () => {
    const roots = mkdtempSync(join(tmpdir(), 'deepsearch-roots-'));
    writeFileSync(join(roots, 'note.txt'), 'Inside the roots.');
    const outside = mkdtempSync(join(tmpdir(), 'deepsearch-outside-'));
    writeFileSync(join(outside, 'secret.txt'), 'Secret.');
    const llm = await startFakeOpenAi({});
    const serve = await serveBuiltCli({
      DEEPSEARCH_LLM_BASE_URL: `${llm.url}/v1`,
      DEEPSEARCH_LLM_MODEL: 'fake-model',
      DEEPSEARCH_API_KEYS: apiKey,
      DEEPSEARCH_ALLOW_FILES: 'true',
      DEEPSEARCH_FILE_ROOTS: roots,
    });
    const client = new Client({ name: 'roots-test', version: '1.0.0' });
    try {
      await client.connect(
        new StreamableHTTPClientTransport(new URL(`${serve.url}/mcp`), {
          requestInit: { headers: { Authorization: `Bearer ${apiKey}` } },
        }),
      );
      const read = async (path: string) => {
        const result = await client.callTool({
          name: 'read_url',
          arguments: { url: pathToFileURL(path).href },
        });
        return { isError: result.isError, text: (result.content as Array<{ text: string }>)[0]!.text };
      };
      expect((await read(join(roots, 'note.txt'))).text).toContain('Inside the roots.');
      const refusals = await Promise.all(
        [join(outside, 'secret.txt'), join(outside, 'nothing.txt'), '/etc/shadow', '/etc/nonexistent'].map(
          async (path) => {
            const { isError, text } = await read(path);
            expect(isError).toBe(true);
            return text.replace(path, 'PATH');
          },
        ),
      );
      expect(new Set(refusals).size).toBe(1);
      expect(refusals[0]).toContain('outside the folders local files may be read from');
    } finally {
      await client.close();
      await serve.stop();
      await llm.close();
    }
  });
});
