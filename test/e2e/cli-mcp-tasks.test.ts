import { once } from 'node:events';
import type { ServerResponse } from 'node:http';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { ResponseMessage } from '@modelcontextprotocol/sdk/shared/responseMessage.js';
import { CallToolResultSchema, type Progress, type Result } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type FakeHttpServer, startFakeHttpServer } from '../../src/testing/fake-http-server.js';
import { startFakeOpenAi } from '../../src/testing/fake-openai-server.js';
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

async function stdioClient(env: Record<string, string>): Promise<Client> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [cliPath, 'mcp'],
    env: childEnv(env),
    stderr: 'pipe',
  });
  const client = new Client({ name: 'deepsearch-task-test', version: '1.0.0' });
  await client.connect(transport);
  return client;
}

async function httpClient(url: string, key: string): Promise<Client> {
  const client = new Client({ name: 'deepsearch-task-test', version: '1.0.0' });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(`${url}/mcp`), {
      requestInit: { headers: { Authorization: `Bearer ${key}` } },
    }),
  );
  return client;
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

/**
 * deep_search started as a task: the call returns a task id at once, progress arrives with the
 * call's progress token while the client polls, the result is the cited answer, and the task is
 * listed as completed.
 */
async function expectTaskAnswer(client: Client): Promise<void> {
  const { tools } = await client.listTools();
  const execution = Object.fromEntries(tools.map((tool) => [tool.name, tool.execution?.taskSupport]));
  expect(execution).toMatchObject({ deep_search: 'optional', research: 'optional' });
  expect(execution.read_url).not.toBe('optional');
  const progress: Progress[] = [];
  const messages: Array<ResponseMessage<Result>> = [];
  const stream = client.experimental.tasks.callToolStream(
    { name: 'deep_search', arguments: { question: citedQuestion, effort: 'low' } },
    CallToolResultSchema,
    { task: { ttl: 60_000 }, onprogress: (update) => progress.push(update) },
  );
  for await (const message of stream) messages.push(message);
  const types = messages.map((message) => message.type);
  expect(types[0]).toBe('taskCreated');
  expect(types.at(-1)).toBe('result');
  const created = messages[0] as Extract<ResponseMessage<Result>, { type: 'taskCreated' }>;
  const taskId = created.task.taskId;
  expect(created.task.status).toBe('working');
  const result = (
    messages.at(-1) as unknown as { result: { content: Array<{ text: string }>; isError?: boolean } }
  ).result;
  expect(result.isError).toBeFalsy();
  expect(result.content[0]!.text).toContain('Peter Farrelly');
  expect(result.content[0]!.text).toContain(oscarsQuote.slice(0, -1));
  const lines = progress.map((update) => update.message);
  expect(lines).toContain(`step 1: ${citedQuestion}`);
  expect(lines.some((line) => line?.startsWith('read 91st Academy Awards'))).toBe(true);
  expect(progress.map((update) => update.progress)).toEqual(progress.map((_, index) => index + 1));
  const task = await client.experimental.tasks.getTask(taskId);
  expect(task.status).toBe('completed');
  // tasks/get shows the last progress line while it runs; the listing has the client's task.
  expect(task.statusMessage).toBeTruthy();
  const listed = await client.experimental.tasks.listTasks();
  expect(listed.tasks.map((entry) => entry.taskId)).toContain(taskId);
}

/** Starts a task whose LLM never answers and returns its id once the first LLM request is in flight. */
async function startHangingTask(client: Client, question: string, inFlight: () => boolean): Promise<string> {
  const stream = client.experimental.tasks.callToolStream(
    { name: 'deep_search', arguments: { question } },
    CallToolResultSchema,
    { task: { ttl: 60_000 } },
  );
  const first = await stream.next();
  expect(first.value).toMatchObject({ type: 'taskCreated' });
  void stream.return(undefined);
  await waitFor(inFlight, 15_000);
  return (first.value as { task: { taskId: string } }).task.taskId;
}

describe('MCP tasks over stdio (built deepsearch mcp, SDK client)', () => {
  it('deep_search as a task: created at once, progress, the cited result, listed as completed', async () => {
    const llm = await startFakeOpenAi({ routes: citedRoutes(web.url) });
    const client = await stdioClient(settings(llm.url));
    try {
      await expectTaskAnswer(client);
      llm.assertConsumed();
      expect(llm.problems).toEqual([]);
    } finally {
      await client.close();
      await llm.close();
    }
  }, 60_000);

  it('tasks/cancel stops the run: the LLM request in flight is closed, the task says cancelled', async () => {
    const llm = await startHangingLlm();
    const client = await stdioClient(settings(llm.server.url));
    try {
      const taskId = await startHangingTask(client, citedQuestion, () => llm.chats() === 1);
      expect((await client.experimental.tasks.getTask(taskId)).status).toBe('working');
      const cancelled = await client.experimental.tasks.cancelTask(taskId);
      expect(cancelled.status).toBe('cancelled');
      // Without the cancellation the request would hang until the LLM timeout (120 s).
      await waitFor(() => llm.closed.includes(0), 5000);
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(llm.chats()).toBe(1);
      expect((await client.experimental.tasks.getTask(taskId)).status).toBe('cancelled');
    } finally {
      await client.close();
      await llm.server.close();
    }
  }, 60_000);
});

describe('MCP tasks on /mcp (built deepsearch serve, streamable HTTP, SDK client)', () => {
  const apiKey = 'sk-mcp-task-0123456789';

  it('a task outlives its POST: progress on the session stream, the result; a cancel or the session’s end frees the slot', async () => {
    const answers = citedRoutes(web.url);
    const agentReplies = answers.agent_action!;
    let hangingChats = 0;
    const llm = await startFakeOpenAi({
      routes: {
        ...answers,
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
    const ready = async () =>
      (await (
        await fetch(`${serve.url}/ready`, { headers: { Authorization: `Bearer ${apiKey}` } })
      ).json()) as {
        running: number;
      };
    try {
      const client = await httpClient(serve.url, apiKey);
      await expectTaskAnswer(client);

      const taskId = await startHangingTask(
        client,
        'Please hang forever: what is new?',
        () => hangingChats === 1,
      );
      // The POST that started it has long been answered; the run still holds its slot.
      expect((await ready()).running).toBe(1);
      expect((await client.experimental.tasks.cancelTask(taskId)).status).toBe('cancelled');
      const started = Date.now();
      while ((await ready()).running !== 0 && Date.now() - started < 5000) {
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      expect((await ready()).running).toBe(0);
      expect(hangingChats).toBe(1);
      // Another session (another client of the same key) cannot see or cancel this session's task.
      const other = await httpClient(serve.url, apiKey);
      await expect(other.experimental.tasks.getTask(taskId)).rejects.toThrow(/not found/i);
      await other.close();
      await client.close();

      // A session that ends (DELETE /mcp) stops its tasks still running and frees their slots.
      const transport = new StreamableHTTPClientTransport(new URL(`${serve.url}/mcp`), {
        requestInit: { headers: { Authorization: `Bearer ${apiKey}` } },
      });
      const ending = new Client({ name: 'deepsearch-task-test', version: '1.0.0' });
      await ending.connect(transport);
      await startHangingTask(ending, 'Please hang forever: and now?', () => hangingChats === 2);
      expect((await ready()).running).toBe(1);
      await transport.terminateSession();
      const ended = Date.now();
      while ((await ready()).running !== 0 && Date.now() - ended < 5000) {
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      expect((await ready()).running).toBe(0);
      expect(hangingChats).toBe(2);
      await ending.close();
    } finally {
      serve.child.kill('SIGTERM');
      await once(serve.child, 'exit');
      await llm.close();
    }
    expect(serve.output()).not.toContain(apiKey);
  }, 60_000);
});
