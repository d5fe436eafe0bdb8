import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { CallToolResultSchema } from '@modelcontextprotocol/sdk/types.js';
import { afterEach, describe, expect, it } from 'vitest';
import { createFakeResearchWorld } from '../../test/helpers/fake-research-world.js';
import { createRoutedLlm } from '../../test/helpers/routed-llm.js';
import { ProviderError } from '../core/errors/index.js';
import type { SearchProvider } from '../providers/spec/search-provider.js';
import { createRuntime, type DeepSearchRuntime } from '../runtime/create-runtime.js';
import { createFakeReader } from '../testing/fake-reader.js';
import { createFakeSearch } from '../testing/fake-search.js';
import { createScriptedLlm } from '../testing/scripted-llm.js';
import { createTestConfig } from '../testing/test-config.js';
import { createMcpServer } from './create-mcp-server.js';
import { describeToolError } from './describe-tool-error.js';

let folders: string[] = [];
afterEach(() => {
  for (const folder of folders) rmSync(folder, { recursive: true, force: true });
  folders = [];
});

async function connect(runtime: DeepSearchRuntime, describeError = describeToolError): Promise<Client> {
  const server = createMcpServer({ runtime, version: '0.0.0-test', describeError });
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  const client = new Client({ name: 'test', version: '1.0.0' });
  await client.connect(clientSide);
  return client;
}

const textOf = (result: Awaited<ReturnType<Client['callTool']>>) =>
  (result.content as Array<{ text: string }>)[0]!.text;

describe('createMcpServer', () => {
  it('offers kb_search once the knowledge base file exists and finds the passages of an added document', async () => {
    const folder = mkdtempSync(join(tmpdir(), 'deepsearch-mcp-kb-'));
    folders.push(folder);
    const config = createTestConfig({
      knowledge: { file: join(folder, 'knowledge.sqlite') },
      reader: { provider: 'builtin' },
    });
    const runtime = createRuntime({
      config,
      search: createFakeSearch({}),
      createModel: () => createScriptedLlm([]),
    });
    expect((await (await connect(runtime)).listTools()).tools.map((tool) => tool.name)).not.toContain(
      'kb_search',
    );

    writeFileSync(join(folder, 'tides.md'), '# Brest tides\n\nSpring tides in Brest reach 7.5 metres.\n');
    await runtime.knowledgeBase!.add({ inputs: ['tides.md'], cwd: folder, collection: 'notes' });
    const client = await connect(runtime);
    expect((await client.listTools()).tools.map((tool) => tool.name)).toContain('kb_search');
    const found = await client.callTool({ name: 'kb_search', arguments: { query: 'spring tides Brest' } });
    expect(found.isError).toBeFalsy();
    expect(found.structuredContent).toMatchObject({
      hits: [{ collection: 'notes', title: 'Brest tides', url: expect.stringMatching(/^kb:notes\//) }],
    });
    expect(textOf(found)).toContain('Spring tides in Brest reach 7.5 metres.');
    runtime.close();
  });

  it('turns a provider failure into a tool error with its message, redacting configured secrets', async () => {
    const secret = 'sk-search-secret-0123456789';
    const failing: SearchProvider = {
      specificationVersion: 'v1',
      id: 'failing',
      search: async () => {
        throw new ProviderError(`search refused key ${secret}: HTTP 401`, {
          providerId: 'brave',
          statusCode: 401,
        });
      },
    };
    const runtime = createRuntime({
      config: createTestConfig({ keys: { jina: secret } }),
      search: failing,
      reader: createFakeReader({}),
      createModel: () => createScriptedLlm([]),
    });
    const client = await connect(runtime);
    const failed = await client.callTool({ name: 'web_search', arguments: { query: 'anything' } });
    expect(failed.isError).toBe(true);
    expect(textOf(failed)).toBe('search refused key [redacted]: HTTP 401');
    const crashing = await connect(runtime, () => 'a generic message');
    const generic = await crashing.callTool({ name: 'web_search', arguments: { query: 'anything' } });
    expect(textOf(generic)).toBe('a generic message');
  });
});

describe('the research tool', () => {
  it('writes a report over MCP, reporting progress by persona', async () => {
    const facts = [
      {
        keywords: ['germany'],
        url: 'https://stats.example/germany',
        title: 'Heat pumps in Germany',
        sentence: 'Germany sold 236,000 heat pumps in 2022, up from 86,000 in 2019.',
      },
    ];
    const world = createFakeResearchWorld(facts, { delayMs: 1 });
    const llm = createRoutedLlm([
      {
        schemaName: 'research_plan',
        reply: {
          title: 'Heat pumps in Germany',
          sections: [{ heading: 'Sales', questions: ['How many heat pumps did Germany sell?'] }],
          dataPoints: [],
        },
        times: 1,
      },
      ...world.routes,
    ]);
    const runtime = createRuntime({
      config: createTestConfig({ budget: { maxSteps: 40 } }),
      search: world.search,
      reader: world.reader,
      createModel: () => llm,
    });
    const client = await connect(runtime);
    expect((await client.listTools()).tools.map((tool) => tool.name)).toContain('research');
    const progress: string[] = [];
    const result = await client.callTool(
      { name: 'research', arguments: { topic: 'Heat pump sales in Germany' } },
      undefined,
      { onprogress: (notice) => progress.push(notice.message ?? '') },
    );
    expect(result.isError).toBeFalsy();
    const report = result.structuredContent as {
      title: string;
      markdown: string;
      follow_ups: string[];
    };
    expect(report.title).toBe('Heat pumps in Germany');
    expect(report.markdown).toContain('## Sales');
    expect(report.follow_ups).toHaveLength(3);
    expect(progress.some((line) => line.startsWith('Research Strategist'))).toBe(true);
    llm.assertNoProblems();
    runtime.close();
  });

  it('runs as an MCP task: created at once, progress by persona, the report as the task result', async () => {
    const world = createFakeResearchWorld(
      [
        {
          keywords: ['germany'],
          url: 'https://stats.example/germany',
          title: 'Heat pumps in Germany',
          sentence: 'Germany sold 236,000 heat pumps in 2022, up from 86,000 in 2019.',
        },
      ],
      { delayMs: 1 },
    );
    const llm = createRoutedLlm([
      {
        schemaName: 'research_plan',
        reply: {
          title: 'Heat pumps in Germany',
          sections: [{ heading: 'Sales', questions: ['How many heat pumps did Germany sell?'] }],
          dataPoints: [],
        },
        times: 1,
      },
      ...world.routes,
    ]);
    const runtime = createRuntime({
      config: createTestConfig({ budget: { maxSteps: 40 } }),
      search: world.search,
      reader: world.reader,
      createModel: () => llm,
    });
    const client = await connect(runtime);
    const tool = (await client.listTools()).tools.find((entry) => entry.name === 'research');
    expect(tool?.execution?.taskSupport).toBe('optional');
    const progress: string[] = [];
    const types: string[] = [];
    let report: { title: string; markdown: string } | undefined;
    for await (const message of client.experimental.tasks.callToolStream(
      { name: 'research', arguments: { topic: 'Heat pump sales in Germany' } },
      undefined,
      { task: { ttl: 1000 }, onprogress: (notice) => progress.push(notice.message ?? '') },
    )) {
      types.push(message.type);
      // A ttl shorter than the run may take is raised: the run's time budget and an hour to read it.
      if (message.type === 'taskCreated') {
        expect(message.task.ttl).toBe(runtime.config.budget.maxTimeSeconds * 1000 + 3_600_000);
      }
      if (message.type === 'result') report = message.result.structuredContent as typeof report;
    }
    expect(types[0]).toBe('taskCreated');
    expect(types.at(-1)).toBe('result');
    expect(report?.title).toBe('Heat pumps in Germany');
    expect(report?.markdown).toContain('## Sales');
    expect(progress.some((line) => line.startsWith('Research Strategist'))).toBe(true);
    llm.assertNoProblems();
    runtime.close();
  });

  it('a task whose run fails ends failed, its result the tool error; cancelling a finished task is refused', async () => {
    const runtime = createRuntime({
      config: createTestConfig(),
      search: createFakeSearch({}),
      reader: createFakeReader({}),
      createModel: () => createScriptedLlm([]),
    });
    const client = await connect(runtime);
    let taskId = '';
    for await (const message of client.experimental.tasks.callToolStream(
      { name: 'research', arguments: { topic: 'Heat pumps', outline: 'no heading here\n- a question' } },
      undefined,
      { task: {} },
    )) {
      if (message.type === 'taskCreated') taskId = message.task.taskId;
    }
    expect(taskId).not.toBe('');
    expect((await client.experimental.tasks.getTask(taskId)).status).toBe('failed');
    const result = await client.experimental.tasks.getTaskResult(taskId, CallToolResultSchema);
    expect(result.isError).toBe(true);
    expect(textOf(result)).toMatch(/outline line \d+/);
    await expect(client.experimental.tasks.cancelTask(taskId)).rejects.toThrow(/terminal/);
    runtime.close();
  });

  it('refuses a malformed outline as a tool error naming the line', async () => {
    const runtime = createRuntime({
      config: createTestConfig(),
      search: createFakeSearch({}),
      reader: createFakeReader({}),
      createModel: () => createScriptedLlm([]),
    });
    const client = await connect(runtime);
    const result = await client.callTool({
      name: 'research',
      arguments: { topic: 'Heat pumps', outline: 'no heading here\n- a question' },
    });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toMatch(/outline line \d+/);
    runtime.close();
  });
});
