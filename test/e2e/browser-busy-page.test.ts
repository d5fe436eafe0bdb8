import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findChromium } from '../../src/platform/browser/launch-chromium.js';
import type { FakeHttpServer } from '../../src/testing/fake-http-server.js';
import { startFakeOpenAi } from '../../src/testing/fake-openai-server.js';
import { startFakeWeb } from '../helpers/fake-web-server.js';
import { runBuiltCli } from '../helpers/run-built-cli.js';
import { type BuiltServer, serveBuiltCli } from '../helpers/serve-built-cli.js';

// A page whose script never yields once loaded (`while (true) {}`) holds its renderer at 100%:
// the browser reader's deadline covers every step (reading the DOM included), and past it the
// renderer is shut, so a read ends with a timeout and a server's other requests go on. All on
// 127.0.0.1; the CLI is preloaded with a guard that ends it on any other connection.
const canRun = findChromium(undefined).available || process.env.CI === 'true';
const loopbackOnly = fileURLToPath(new URL('../helpers/loopback-only.cjs', import.meta.url));
const env = { NODE_OPTIONS: `--require ${loopbackOnly}` };
// An app shell (no text without its script), so the default reader (auto) renders it too.
const looping =
  '<html><head><title>Busy</title></head><body><div id="app"></div>' +
  "<script>addEventListener('load', () => { while (true) {} });</script></body></html>";

// Grows its heap without end: Chromium's cap on a page's heap crashes its renderer first.
const hungry =
  '<html><head><title>Hungry</title></head><body><div id="app"></div><script>const kept = [];' +
  'setInterval(() => { for (let i = 0; i < 20; i++) kept.push(new Array(1e5).fill(Math.random())); }, 5);' +
  '</script></body></html>';

let web: FakeHttpServer;

beforeAll(async () => {
  web = await startFakeWeb({
    pages: { '/loop': { html: looping }, '/loop-2': { html: looping }, '/hungry': { html: hungry } },
  });
});

afterAll(() => web.close());

describe.skipIf(!canRun)('a page script that never yields (browser reader)', { timeout: 120_000 }, () => {
  it('read --reader browser --reader-timeout 10 ends within 15 s with a timeout', async () => {
    const started = Date.now();
    const run = await runBuiltCli(
      ['read', '--reader', 'browser', '--reader-timeout', '10', '--allow-private-network', `${web.url}/loop`],
      env,
      { timeoutMs: 60_000 },
    );
    const seconds = (Date.now() - started) / 1000;
    expect(seconds).toBeLessThan(15);
    expect(run.code).not.toBe(0);
    expect(run.stderr).toContain(`${web.url}/loop did not load within 10s`);
    expect(run.stdout).toBe('');
  });

  it("a page that grows its heap without end fails the read as over the page's memory cap, by the deadline", async () => {
    const started = Date.now();
    const run = await runBuiltCli(
      [
        'read',
        '--reader',
        'browser',
        '--reader-timeout',
        '30',
        '--allow-private-network',
        `${web.url}/hungry`,
      ],
      env,
      { timeoutMs: 60_000 },
    );
    expect(run.code).not.toBe(0);
    expect(run.stderr).toContain(
      `${web.url}/hungry crashed its renderer in Chromium (a page's scripts may use 512 MB; it may have needed more): it was not read`,
    );
    // Its renderer never grew past the cap (V8's old space), and the read ended by its deadline.
    expect(Date.now() - started).toBeLessThan(45_000);
  });

  describe('on serve', () => {
    const apiKey = 'sk-busy-page-0123456789';
    let server: BuiltServer;
    let llm: Awaited<ReturnType<typeof startFakeOpenAi>>;

    beforeAll(async () => {
      llm = await startFakeOpenAi({
        routes: {
          agent_action: () => ({
            content: JSON.stringify({
              think: 'Easy.',
              action: 'answer',
              answer: { text: '2', references: [] },
            }),
          }),
        },
      });
      server = await serveBuiltCli({
        DEEPSEARCH_LLM_BASE_URL: `${llm.url}/v1`,
        DEEPSEARCH_LLM_MODEL: 'fake-model',
        DEEPSEARCH_API_KEYS: apiKey,
        DEEPSEARCH_ALLOW_PRIVATE_NETWORK: '1',
        DEEPSEARCH_READER_TIMEOUT: '10',
        DEEPSEARCH_NO_RUNS: '1',
      });
    });

    afterAll(async () => {
      await server?.stop();
      await llm?.close();
    });

    it('two looping read_url calls do not delay a chat completion by more than 2 s, and end with the timeout said', async () => {
      const openai = new OpenAI({ baseURL: `${server.url}/v1`, apiKey, maxRetries: 0 });
      const ask = async () => {
        const started = Date.now();
        const completion = await openai.chat.completions.create({
          model: 'deepsearch',
          messages: [{ role: 'user', content: 'What is 1+1?' }],
        });
        expect(completion.choices[0]!.message.content).toContain('2');
        return Date.now() - started;
      };
      const quiet = await ask();
      const client = new Client({ name: 'busy-page-test', version: '1.0.0' });
      await client.connect(
        new StreamableHTTPClientTransport(new URL(`${server.url}/mcp`), {
          requestInit: { headers: { Authorization: `Bearer ${apiKey}` } },
        }),
      );
      try {
        const started = Date.now();
        const reads = ['/loop', '/loop-2'].map((path) =>
          client.callTool({ name: 'read_url', arguments: { url: `${web.url}${path}` } }),
        );
        // The pages are loaded and looping by now.
        await new Promise((resolve) => setTimeout(resolve, 3000));
        const busy = await ask();
        expect(busy - quiet).toBeLessThan(2000);
        // auto gives the page as the builtin reader saw it (an empty shell), saying why it is empty.
        for (const result of await Promise.all(reads)) {
          const { empty_reason: reason } = result.structuredContent as { empty_reason?: string };
          expect(reason).toMatch(/Chromium could not render it \(.* did not load within 10s\)/);
        }
        expect(Date.now() - started).toBeLessThan(20_000);
      } finally {
        await client.close();
      }
    });
  });
});
