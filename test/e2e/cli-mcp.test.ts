import { once } from 'node:events';
import { mkdtempSync } from 'node:fs';
import type { ServerResponse } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { Progress } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type FakeHttpServer, startFakeHttpServer } from '../../src/testing/fake-http-server.js';
import { startFakeOpenAi } from '../../src/testing/fake-openai-server.js';
import { oscarsPage } from '../helpers/agent-harness.js';
import { startFakeSearxng } from '../helpers/fake-searxng-server.js';
import { startFakeWeb } from '../helpers/fake-web-server.js';
import {
  childEnv,
  citedPages,
  citedQuestion,
  citedRoutes,
  citedSearchResults,
  oscarsQuote,
  startBuiltServe,
} from '../helpers/mcp-fixtures.js';
import { cliPath } from '../helpers/run-built-cli.js';
import { waitFor } from '../helpers/server-harness.js';

let web: FakeHttpServer;
let searxng: FakeHttpServer;

beforeAll(async () => {
  web = await startFakeWeb({ pages: citedPages });
  searxng = await startFakeSearxng({ results: citedSearchResults(web.url) });
});

afterAll(async () => {
  await web.close();
  await searxng.close();
});

const settings = (llmUrl: string) => ({
  DEEPSEARCH_LLM_BASE_URL: `${llmUrl}/v1`,
  DEEPSEARCH_LLM_MODEL: 'fake-model',
  DEEPSEARCH_SEARCH_PROVIDER: 'searxng',
  DEEPSEARCH_SEARXNG_URL: searxng.url,
  DEEPSEARCH_ALLOW_PRIVATE_NETWORK: 'true',
});

async function stdioClient(env: Record<string, string>): Promise<{ client: Client; stderr: () => string }> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [cliPath, 'mcp'],
    env: childEnv(env),
    stderr: 'pipe',
  });
  let stderr = '';
  transport.stderr?.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  const client = new Client({ name: 'deepsearch-test', version: '1.0.0' });
  await client.connect(transport);
  return { client, stderr: () => stderr };
}

type ToolResult = Awaited<ReturnType<Client['callTool']>>;
const textOf = (result: ToolResult) => (result.content as Array<{ type: string; text: string }>)[0]!.text;

/** A deep_search call with progress; checks the answer, its verified quote and the progress seen. */
async function expectCitedAnswer(client: Client): Promise<void> {
  const progress: Progress[] = [];
  const result = await client.callTool(
    { name: 'deep_search', arguments: { question: citedQuestion, effort: 'low' } },
    undefined,
    { onprogress: (update) => progress.push(update) },
  );
  expect(result.isError).toBeFalsy();
  expect(textOf(result)).toContain('Peter Farrelly');
  // The footnote quotes the page (the model's trailing full stop trimmed).
  expect(textOf(result)).toContain(`[^1]: "${oscarsQuote.slice(0, -1)}"`);
  const structured = result.structuredContent as {
    references: Array<{ url: string; quote: string; quote_kind: string }>;
    confidence: string;
    usage: { total_tokens: number; llm_calls: number };
  };
  expect(structured.references[0]).toMatchObject({ url: `${web.url}/oscars`, quote_kind: 'exact' });
  // Verified: the quote is literally on the page the server read.
  expect(oscarsPage).toContain(structured.references[0]!.quote);
  expect(structured.confidence).toBe('high');
  expect(structured.usage.llm_calls).toBeGreaterThanOrEqual(5);
  expect(structured.usage.total_tokens).toBeGreaterThan(0);
  const messages = progress.map((update) => update.message);
  expect(messages).toContain(`step 1: ${citedQuestion}`);
  expect(messages.some((message) => message?.startsWith('read 91st Academy Awards'))).toBe(true);
  expect(progress.map((update) => update.progress)).toEqual(progress.map((_, index) => index + 1));
}

/** An LLM that never answers a chat request, and says when our side closed each one. */
async function startHangingLlm() {
  const closed: number[] = [];
  let chats = 0;
  const server = await startFakeHttpServer((request, response: ServerResponse) => {
    if (request.path !== '/v1/chat/completions') {
      response.writeHead(404).end();
      return;
    }
    const index = chats++;
    response.on('close', () => closed.push(index));
  });
  return { server, closed, chats: () => chats };
}

describe('deepsearch mcp (built CLI over stdio, SDK client)', () => {
  it('lists the tools with schemas, answers deep_search with a verified quote and progress, refuses bad arguments as tool errors', async () => {
    const llm = await startFakeOpenAi({ routes: citedRoutes(web.url) });
    const { client, stderr } = await stdioClient(settings(llm.url));
    try {
      const { tools } = await client.listTools();
      // No knowledge base exists in the fresh data directory: kb_search is not offered.
      expect(tools.map((tool) => tool.name)).toEqual(['deep_search', 'research', 'web_search', 'read_url']);
      const deepSearch = tools[0]!;
      expect(deepSearch.description).toContain('quotes verified');
      expect(deepSearch.inputSchema.required).toEqual(['question']);
      expect(Object.keys(deepSearch.inputSchema.properties ?? {})).toEqual(
        expect.arrayContaining(['question', 'effort', 'max_steps', 'max_seconds', 'only_hostnames']),
      );
      expect(deepSearch.outputSchema?.properties).toHaveProperty('references');

      await expectCitedAnswer(client);
      llm.assertConsumed();

      const empty = await client.callTool({ name: 'deep_search', arguments: { question: '  ' } });
      expect(empty.isError).toBe(true);
      expect(textOf(empty)).toContain('the question is empty');
      const steps = await client.callTool({
        name: 'deep_search',
        arguments: { question: 'x?', max_steps: 0 },
      });
      expect(steps.isError).toBe(true);
      expect(textOf(steps)).toContain('max_steps');

      const hits = await client.callTool({ name: 'web_search', arguments: { query: 'Best Picture 2019' } });
      expect(hits.structuredContent).toMatchObject({
        provider: 'searxng',
        hits: [{ url: `${web.url}/oscars`, title: '91st Academy Awards' }],
      });
      const page = await client.callTool({ name: 'read_url', arguments: { url: `${web.url}/oscars` } });
      expect(textOf(page)).toContain(oscarsQuote);
      const refused = await client.callTool({ name: 'read_url', arguments: { url: 'ftp://example.org/x' } });
      expect(refused.isError).toBe(true);
      expect(textOf(refused)).not.toMatch(/\n\s+at /); // a message, not a stack
      expect(llm.problems).toEqual([]);
    } finally {
      await client.close();
      await llm.close();
    }
    expect(stderr()).toContain('MCP server ready on stdio');
  }, 60_000);

  it('a cancelled call stops the run: the LLM request in flight is closed and no other starts', async () => {
    const llm = await startHangingLlm();
    const { client } = await stdioClient(settings(llm.server.url));
    try {
      const controller = new AbortController();
      const call = client.callTool(
        { name: 'deep_search', arguments: { question: citedQuestion } },
        undefined,
        {
          signal: controller.signal,
        },
      );
      await waitFor(() => llm.chats() === 1, 15_000);
      controller.abort();
      await expect(call).rejects.toThrow();
      // Without the cancellation the request would hang until the LLM timeout (120 s).
      await waitFor(() => llm.closed.includes(0), 5000);
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(llm.chats()).toBe(1);
      // The server is still there for the next call.
      expect((await client.listTools()).tools.length).toBe(4);
    } finally {
      await client.close();
      await llm.server.close();
    }
  }, 60_000);
});

describe('/mcp on deepsearch serve (built CLI, streamable HTTP, SDK client)', () => {
  const apiKey = 'sk-mcp-http-0123456789';

  it('needs the API key, answers with a verified quote and progress, and a cancelled call frees its slot', async () => {
    const answers = citedRoutes(web.url);
    const agentReplies = answers.agent_action!;
    let hangingChats = 0;
    const llm = await startFakeOpenAi({
      routes: {
        ...answers,
        // The question that says "hang" gets no answer: the call is cancelled while it waits.
        agent_action: (request) => {
          if (request.prompt.includes('hang forever')) {
            hangingChats++;
            return { delayMs: 60_000 };
          }
          return agentReplies.shift()!;
        },
      },
    });
    const serve = await startBuiltServe({ ...settings(llm.url), DEEPSEARCH_API_KEYS: apiKey });
    const connect = async (key: string) => {
      const client = new Client({ name: 'deepsearch-test', version: '1.0.0' });
      const transport = new StreamableHTTPClientTransport(new URL(`${serve.url}/mcp`), {
        requestInit: { headers: { Authorization: `Bearer ${key}` } },
      });
      await client.connect(transport);
      return client;
    };
    try {
      await expect(connect('sk-wrong-key')).rejects.toThrow(/401|invalid API key/);
      const client = await connect(apiKey);
      const { tools } = await client.listTools();
      // serve keeps watches (beside its runs): the watch tool is offered over HTTP, not on stdio.
      expect(tools.map((tool) => tool.name)).toEqual([
        'deep_search',
        'research',
        'web_search',
        'read_url',
        'watch',
      ]);
      await expectCitedAnswer(client);

      const bad = await client.callTool({ name: 'web_search', arguments: { query: 'x', count: 500 } });
      expect(bad.isError).toBe(true);
      expect(textOf(bad)).toContain('count');
      // A refused URL is the caller's to fix: its reason is told, as on stdio (not a generic 5xx line).
      const refused = await client.callTool({ name: 'read_url', arguments: { url: 'ftp://example.org/x' } });
      expect(refused.isError).toBe(true);
      expect(textOf(refused)).toContain('ftp:');

      const controller = new AbortController();
      const call = client.callTool(
        { name: 'deep_search', arguments: { question: 'Please hang forever: what is new?' } },
        undefined,
        { signal: controller.signal },
      );
      await waitFor(() => hangingChats === 1, 15_000);
      // Counts are shown only to a request with a key.
      const ready = async () =>
        (await (
          await fetch(`${serve.url}/ready`, { headers: { Authorization: `Bearer ${apiKey}` } })
        ).json()) as { running: number };
      expect((await ready()).running).toBe(1);
      controller.abort();
      await expect(call).rejects.toThrow();
      // The run ended: its concurrency slot is free again, and no other LLM request was made.
      const started = Date.now();
      while ((await ready()).running !== 0 && Date.now() - started < 5000) {
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      expect((await ready()).running).toBe(0);
      expect(hangingChats).toBe(1);
      await client.close();
    } finally {
      serve.child.kill('SIGTERM');
      await once(serve.child, 'exit');
      await llm.close();
    }
    expect(serve.output()).not.toContain(apiKey);
  }, 60_000);

  it("a run started over MCP belongs to the session's key: listed for it, invisible to another key", async () => {
    const keyA = 'sk-mcp-owner-a-0123456789';
    const keyB = 'sk-mcp-owner-b-0123456789';
    const llm = await startFakeOpenAi({ routes: citedRoutes(web.url) });
    const runsFile = join(mkdtempSync(join(tmpdir(), 'deepsearch-mcp-runs-')), 'runs.sqlite');
    const serve = await startBuiltServe({
      ...settings(llm.url),
      DEEPSEARCH_API_KEYS: `${keyA},${keyB}`,
      DEEPSEARCH_NO_RUNS: '0',
      DEEPSEARCH_RUNS_FILE: runsFile,
    });
    const runsOf = async (key: string) =>
      (
        (await (
          await fetch(`${serve.url}/v1/runs`, { headers: { Authorization: `Bearer ${key}` } })
        ).json()) as { data: Array<{ id: string; question: string; status: string }> }
      ).data;
    try {
      const client = new Client({ name: 'deepsearch-test', version: '1.0.0' });
      await client.connect(
        new StreamableHTTPClientTransport(new URL(`${serve.url}/mcp`), {
          requestInit: { headers: { Authorization: `Bearer ${keyA}` } },
        }),
      );
      await expectCitedAnswer(client);
      await client.close();
      const own = await runsOf(keyA);
      expect(own).toEqual([expect.objectContaining({ question: citedQuestion, status: 'completed' })]);
      expect(await runsOf(keyB)).toEqual([]);
      const other = await fetch(`${serve.url}/v1/research/${own[0]!.id}`, {
        headers: { Authorization: `Bearer ${keyB}` },
      });
      expect(other.status).toBe(404);
    } finally {
      serve.child.kill('SIGTERM');
      await once(serve.child, 'exit');
      await llm.close();
    }
  }, 60_000);
});
