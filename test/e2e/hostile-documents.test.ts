import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { residentBytes } from '../../src/platform/child-process/process-memory.js';
import type { FakeHttpServer } from '../../src/testing/fake-http-server.js';
import { startFakeOpenAi } from '../../src/testing/fake-openai-server.js';
import { type FakeWebPage, startFakeWeb } from '../helpers/fake-web-server.js';
import { hostileDocuments } from '../helpers/hostile-documents.js';
import { passingEvaluation } from '../helpers/passing-evaluation.js';
import { childPids, cpuSeconds, isProcessRunning } from '../helpers/process-state.js';
import { runBuiltCli } from '../helpers/run-built-cli.js';
import { type BuiltServer, serveBuiltCli } from '../helpers/serve-built-cli.js';
import { watchHealth } from '../helpers/watch-health.js';

/**
 * The security probe's hostile pages and documents (made here, nothing downloaded), through every
 * route a user reaches: the built CLI's `read`, MCP `read_url` and an agent run on the built server,
 * and `kb add`. Each read ends within its deadline with an error or note naming the limit, the
 * server's /health answers within 1 s throughout, its memory comes back, and SIGTERM stops it
 * within its grace period even while a hostile page is being parsed.
 */
const docx = 'application/vnd.openxmlformats-officedocument.wordprocessingml.document';
const article = (title: string) =>
  `<html><head><title>${title}</title></head><body><article><h1>${title}</h1><p>An ordinary page, read between hostile ones, so the run has something to go on.</p></article></body></html>`;

interface Hostile {
  path: string;
  page: FakeWebPage;
  /** File name for kb add. */
  file: string;
  /** What a read says: the error, or what its text shows (plain rows, the note of a page read in part). */
  expect: { error: RegExp } | { text: RegExp };
}

let hostile: Hostile[];
let web: FakeHttpServer;

beforeAll(async () => {
  const bytes = (body: Uint8Array, contentType: string): FakeWebPage => ({ body, contentType });
  hostile = [
    {
      path: '/table',
      file: 'table.html',
      page: { html: hostileDocuments.bigTable(25_000) },
      expect: { text: /^\| r0c0 \| r0c1 \| .*\n\| --- \| --- \|/m },
    },
    {
      path: '/nested',
      file: 'nested.html',
      page: { html: hostileDocuments.nestedDivs(200_000) },
      expect: { error: /nests its elements more than 256 deep \(limit: DEEPSEARCH_MAX_NESTING_DEPTH\)/ },
    },
    {
      path: '/pages.pdf',
      file: 'pages.pdf',
      page: bytes(hostileDocuments.manyPagesPdf(30_000), 'application/pdf'),
      expect: { text: /\[read the first 50 of 30000 pages \(limit: DEEPSEARCH_MAX_PDF_PAGES\)\]/ },
    },
    {
      path: '/stream.pdf',
      file: 'stream.pdf',
      page: bytes(hostileDocuments.inflatingPdf(400), 'application/pdf'),
      expect: { error: /a stream that inflates to more than 64 MB \(limit: DEEPSEARCH_MAX_INFLATED_BYTES\)/ },
    },
    {
      path: '/bomb.docx',
      file: 'bomb.docx',
      page: bytes(hostileDocuments.docxZipBomb(1000), docx),
      expect: {
        error:
          /DOCX whose parts inflate to 1000(\.\d)? MB, more than 64 MB \(limit: DEEPSEARCH_MAX_INFLATED_BYTES\)/,
      },
    },
    ...(
      [
        ['truncated', hostileDocuments.truncatedPdf(), /Invalid PDF structure/],
        ['self', hostileDocuments.selfReferencingPdf(), /circular reference/],
        ['garbage', hostileDocuments.garbagePdf(), /Invalid PDF structure/],
      ] as const
    ).map(([name, pdf, why]) => ({
      path: `/${name}.pdf`,
      file: `${name}.pdf`,
      page: bytes(pdf, 'application/pdf'),
      expect: { error: new RegExp(`is not a PDF that can be read: .*${why.source}`) },
    })),
  ];
  web = await startFakeWeb({
    pages: {
      ...Object.fromEntries(hostile.map((item) => [item.path, item.page])),
      '/ok-1': { html: article('First ordinary page') },
      '/ok-2': { html: article('Second ordinary page') },
    },
  });
});

afterAll(async () => {
  await web?.close();
});

/** The same limits everywhere: the defaults, except a PDF page limit that keeps the test fast. */
const limits = {
  DEEPSEARCH_ALLOW_PRIVATE_NETWORK: 'true',
  // The 30,000-page PDF is 6.4 MB: over the 5 MB default, it would be refused before its pages count.
  DEEPSEARCH_READER_MAX_BYTES: String(16 * 1024 * 1024),
  DEEPSEARCH_MAX_PDF_PAGES: '50',
  // The 25,000-cell table takes a few seconds of CPU; on a loaded CI machine more than the default 15.
  DEEPSEARCH_EXTRACT_TIMEOUT: '60',
};

function expectRead(item: Hostile, outcome: { error?: string; text?: string }): void {
  if ('error' in item.expect) {
    expect(outcome.error, item.path).toMatch(item.expect.error);
  } else {
    expect(outcome.error, item.path).toBeUndefined();
    expect(outcome.text, item.path).toMatch(item.expect.text);
  }
}

describe('hostile pages and documents (built CLI and server)', () => {
  it('deepsearch read: each ends with the page or a clear error naming the limit', async () => {
    const started = Date.now();
    const run = await runBuiltCli(
      ['read', '--format', 'json', ...hostile.map((item) => `${web.url}${item.path}`)],
      limits,
      { timeoutMs: 60_000 },
    );
    expect(Date.now() - started).toBeLessThan(60_000);
    // Exit code 3: a page (an outside resource) failed; every input still has its line.
    expect(run.code).toBe(3);
    const lines = run.stdout
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line));
    expect(lines).toHaveLength(hostile.length);
    hostile.forEach((item, index) => {
      const line = lines[index] as { error?: { message: string }; markdown?: string };
      expectRead(item, { error: line.error?.message, text: line.markdown });
    });
  }, 90_000);

  it('kb add: refuses or cuts each file, saying why, and its own memory stays small', async () => {
    const folder = mkdtempSync(join(tmpdir(), 'hostile-kb-'));
    mkdirSync(join(folder, 'docs'));
    for (const item of hostile) {
      const { html, body } = item.page;
      writeFileSync(join(folder, 'docs', item.file), html ?? (body as Uint8Array));
    }
    // A text file over the size cap is read up to it, and says so.
    writeFileSync(join(folder, 'docs', 'long.txt'), 'A line of a very long log file.\n'.repeat(300_000));
    let peak = 0;
    let poll: NodeJS.Timeout | undefined;
    const run = await runBuiltCli(
      ['kb', 'add', join(folder, 'docs'), '--json', '--kb', join(folder, 'kb.sqlite')],
      { ...limits, DEEPSEARCH_KB_MAX_FILE_BYTES: String(8 * 1024 * 1024) },
      {
        timeoutMs: 90_000,
        onSpawn: (child) => {
          poll = setInterval(async () => {
            peak = Math.max(peak, (await residentBytes(child.pid!)) ?? 0);
          }, 100);
        },
      },
    );
    clearInterval(poll);
    expect(run.code, run.stderr).toBe(0);
    const report = JSON.parse(run.stdout) as {
      added: string[];
      failed: Array<{ source: string; reason: string }>;
      notes: Array<{ source: string; note: string }>;
    };
    const name = (path: string) => path.split('/').at(-1);
    for (const item of hostile) {
      const failure = report.failed.find((entry) => name(entry.source) === item.file);
      const note = report.notes.find((entry) => name(entry.source) === item.file)?.note;
      if ('error' in item.expect) expect(failure?.reason, item.file).toMatch(item.expect.error);
      else expect(report.added.map(name), item.file).toContain(item.file);
      if (item.file === 'pages.pdf')
        expect(note).toBe('read the first 50 of 30000 pages (limit: DEEPSEARCH_MAX_PDF_PAGES)');
    }
    expect(report.notes.find((entry) => name(entry.source) === 'long.txt')?.note).toBe(
      'only the first 8388608 bytes were read (limit: DEEPSEARCH_KB_MAX_FILE_BYTES)',
    );
    // The parsing happened in extraction processes: the CLI itself never held a bomb's contents.
    expect(peak).toBeGreaterThan(0);
    expect(peak).toBeLessThan(400 * 1024 * 1024);
  }, 120_000);

  describe('deepsearch serve', () => {
    const apiKey = 'sk-hostile-0123456789';
    let server: BuiltServer;
    let llm: Awaited<ReturnType<typeof startFakeOpenAi>>;
    const urls = () => hostile.map((item) => `${web.url}${item.path}`);

    beforeAll(async () => {
      const reply = (object: unknown) => ({ content: JSON.stringify(object) });
      const visit = (targets: string[]) =>
        reply({ think: 'Read them.', action: 'visit', visit: { targets } });
      const [table, nested, stream, bomb, pages, truncated, self, garbage] = urls();
      llm = await startFakeOpenAi({
        routes: {
          // Each batch holds a page that reads, so visiting stays allowed for the next step.
          agent_action: [
            visit([table!, nested!, stream!, bomb!]),
            visit([pages!, truncated!, self!, garbage!]),
            reply({
              think: 'The table was read.',
              action: 'answer',
              answer: { text: 'The first cell is r1c0[^1].', references: [{ url: table, quote: 'r1c0' }] },
            }),
          ],
          ...passingEvaluation(reply),
        },
      });
      server = await serveBuiltCli({
        ...limits,
        DEEPSEARCH_LLM_BASE_URL: `${llm.url}/v1`,
        DEEPSEARCH_LLM_MODEL: 'fake-model',
        DEEPSEARCH_SEARCH_PROVIDER: 'searxng',
        DEEPSEARCH_SEARXNG_URL: `${web.url}/searxng`,
        DEEPSEARCH_API_KEYS: apiKey,
        DEEPSEARCH_NO_RUNS: '1',
      });
    });

    afterAll(async () => {
      await server?.stop();
      await llm?.close();
    });

    async function treeBytes(): Promise<{ server: number; children: number }> {
      const pid = server.child.pid!;
      const children = await Promise.all((await childPids(pid)).map(residentBytes));
      return {
        server: (await residentBytes(pid)) ?? 0,
        children: children.reduce<number>((sum, bytes) => sum + (bytes ?? 0), 0),
      };
    }

    it.skipIf(process.platform !== 'linux')(
      'MCP read_url and an agent run read them with /health answering within 1 s, and memory comes back',
      async () => {
        const client = new Client({ name: 'hostile-test', version: '1.0.0' });
        await client.connect(
          new StreamableHTTPClientTransport(new URL(`${server.url}/mcp`), {
            requestInit: { headers: { Authorization: `Bearer ${apiKey}` } },
          }),
        );
        // Warm: both extraction processes started (two reads at once), then the baseline.
        await Promise.all(
          ['/ok-1', '/ok-2'].map((path) =>
            client.callTool({ name: 'read_url', arguments: { url: `${web.url}${path}` } }),
          ),
        );
        const before = await treeBytes();
        const health = watchHealth(server.url);
        try {
          for (const item of hostile) {
            const result = await client.callTool({
              name: 'read_url',
              arguments: { url: `${web.url}${item.path}` },
            });
            const text = (result.content as Array<{ text: string }>)[0]!.text;
            expectRead(item, result.isError ? { error: text } : { text });
          }
          const openai = new OpenAI({ baseURL: `${server.url}/v1`, apiKey, maxRetries: 0 });
          const completion = await openai.chat.completions.create({
            model: 'deepsearch',
            messages: [
              {
                role: 'user',
                content: `What do these pages hold? ${[...urls(), `${web.url}/ok-2`].join(' ')}`,
              },
            ],
          });
          expect(completion.choices[0]!.message.content).toContain('The first cell is r1c0');
          const reasoning = (completion.choices[0]!.message as unknown as { reasoning_content: string })
            .reasoning_content;
          for (const item of hostile.filter((entry) => 'error' in entry.expect)) {
            const line = reasoning
              .split('\n')
              .find((text) => text.includes(`could not read <${web.url}${item.path}>`));
            expect(line, item.path).toMatch((item.expect as { error: RegExp }).error);
          }
          llm.assertConsumed();
        } finally {
          await health.stop();
          await client.close();
        }
        expect(health.answered).toBeGreaterThan(10);
        expect(health.slowestMs).toBeLessThan(1000);
        // "Comes back" is given time: the server's heap is reclaimed by V8's memory reducer once the
        // process has been idle a while, not at once (measured: +93 MB server / +109 MB tree for
        // the first ~9 s, then +47 / +43), and on a loaded CI machine that idle point comes later;
        // the bound itself stays 100 MB.
        const grownBy = (now: { server: number; children: number }) => ({
          server: now.server - before.server,
          tree: now.server + now.children - (before.server + before.children),
        });
        let after = await treeBytes();
        await expect
          .poll(
            async () => {
              after = await treeBytes();
              const grown = grownBy(after);
              return Math.max(grown.server, grown.tree);
            },
            { timeout: 60_000, interval: 1_000 },
          )
          .toBeLessThan(100 * 1024 * 1024);
        console.log('memory (MB) before', mb(before), 'after', mb(after));
      },
      180_000,
    );
  });

  it.skipIf(process.platform !== 'linux')(
    'SIGTERM stops the server within its grace period while a hostile page is being parsed',
    async () => {
      const apiKey = 'sk-hostile-term-0123456789';
      const server = await serveBuiltCli({
        ...limits,
        // Limits lifted: 200,000 nested divs then keep an extraction process busy for minutes.
        DEEPSEARCH_MAX_NESTING_DEPTH: '10000000',
        DEEPSEARCH_EXTRACT_TIMEOUT: '300',
        DEEPSEARCH_SHUTDOWN_GRACE: '2',
        DEEPSEARCH_LLM_BASE_URL: 'http://127.0.0.1:9/v1',
        DEEPSEARCH_LLM_MODEL: 'fake-model',
        DEEPSEARCH_SEARCH_PROVIDER: 'searxng',
        DEEPSEARCH_SEARXNG_URL: `${web.url}/searxng`,
        DEEPSEARCH_API_KEYS: apiKey,
        DEEPSEARCH_NO_RUNS: '1',
      });
      const health = watchHealth(server.url);
      const client = new Client({ name: 'hostile-term', version: '1.0.0' });
      let reading: Promise<unknown> = Promise.resolve();
      try {
        await client.connect(
          new StreamableHTTPClientTransport(new URL(`${server.url}/mcp`), {
            requestInit: { headers: { Authorization: `Bearer ${apiKey}` } },
          }),
        );
        reading = client
          .callTool({ name: 'read_url', arguments: { url: `${web.url}/nested` } })
          .catch(() => undefined);
        // The extraction process is at work once it has used a second of CPU.
        const pid = server.child.pid!;
        await expect
          .poll(async () => busyChild(await childPids(pid)), { timeout: 20_000, interval: 200 })
          .toBe(true);
        const children = await childPids(pid);
        await new Promise((resolve) => setTimeout(resolve, 1000));
        await health.stop();
        const stopping = Date.now();
        const code = await server.stop();
        expect(Date.now() - stopping).toBeLessThan(2000 + 3000);
        expect(code).toBe(0);
        for (const child of children) await expect.poll(() => isProcessRunning(child)).toBe(false);
      } finally {
        await health.stop();
        await server.stop();
        // The call's stream ended with the server; closing the client settles it.
        await client.close();
        await reading;
      }
      expect(health.answered).toBeGreaterThan(3);
      expect(health.slowestMs).toBeLessThan(1000);
    },
    60_000,
  );
});

/** A child that has used more than a second of CPU: parsing, not idling. */
async function busyChild(pids: number[]): Promise<boolean> {
  const used = await Promise.all(pids.map(cpuSeconds));
  return used.some((seconds) => seconds > 1);
}

const mb = (bytes: { server: number; children: number }) => ({
  server: Math.round(bytes.server / 2 ** 20),
  children: Math.round(bytes.children / 2 ** 20),
});
