import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { FakeHttpServer } from '../../src/testing/fake-http-server.js';
import { type FakeOpenAiServer, startFakeOpenAi } from '../../src/testing/fake-openai-server.js';
import { startFakeSearxng } from '../helpers/fake-searxng-server.js';
import { passingEvaluation } from '../helpers/passing-evaluation.js';
import { runBuiltCli } from '../helpers/run-built-cli.js';

let dir: string;
let searxng: FakeHttpServer;
let fileUrl: string;
const llms: FakeOpenAiServer[] = [];

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'deepsearch-local-e2e-'));
  const path = join(dir, 'q3 report.md');
  writeFileSync(
    path,
    '# Q3 report\n\nThe operating margin for Q3 was 14.2 percent, up from 12.9 percent in Q2.\n',
  );
  fileUrl = pathToFileURL(path).href;
  searxng = await startFakeSearxng({ results: () => [] });
});

afterAll(async () => {
  await searxng.close();
  rmSync(dir, { recursive: true, force: true });
});

afterEach(async () => {
  await Promise.all(llms.splice(0).map((llm) => llm.close()));
});

const reply = (object: unknown) => ({
  content: JSON.stringify(object),
  usage: { prompt_tokens: 900, completion_tokens: 60 },
});

async function startLlm(answerQuote: string): Promise<FakeOpenAiServer> {
  const llm = await startFakeOpenAi({
    routes: {
      agent_action: [
        reply({ think: 'Read the report named.', action: 'visit', visit: { targets: [fileUrl] } }),
        reply({
          think: 'The report says it.',
          action: 'answer',
          answer: {
            text: 'The Q3 operating margin was 14.2 percent[^1].',
            references: [{ url: fileUrl, quote: answerQuote }],
          },
        }),
      ],
      ...passingEvaluation(reply, 'Plain.'),
      final_answer: [
        reply({ think: 'Nothing read.', answer: { text: 'I could not read the report.', references: [] } }),
      ],
    },
  });
  llms.push(llm);
  return llm;
}

function env(llm: FakeOpenAiServer): Record<string, string> {
  return {
    DEEPSEARCH_LLM_BASE_URL: `${llm.url}/v1`,
    DEEPSEARCH_LLM_MODEL: 'fake-model',
    DEEPSEARCH_SEARXNG_URL: searxng.url,
  };
}

describe('local files as sources (built CLI)', () => {
  it('with --allow-files, cites a file named in the question with a verified quote', async () => {
    const llm = await startLlm('operating margin for Q3 was 14.2 percent');
    const run = await runBuiltCli(
      [
        'ask',
        `What was the Q3 operating margin in ${fileUrl}?`,
        '--json',
        '--allow-files',
        '--file-roots',
        dir,
      ],
      env(llm),
    );
    expect(run.code).toBe(0);
    const output = JSON.parse(run.stdout);
    expect(output.answer).toBe('The Q3 operating margin was 14.2 percent[^1].');
    expect(output.references).toEqual([
      expect.objectContaining({
        url: fileUrl,
        title: 'Q3 report',
        quote: 'operating margin for Q3 was 14.2 percent',
      }),
    ]);
    expect(searxng.requests).toHaveLength(0);
  });

  it('without --allow-files, refuses to read it and says that local files are off', async () => {
    const llm = await startFakeOpenAi({
      routes: {
        agent_action: [
          reply({ think: 'Read the report named.', action: 'visit', visit: { targets: [fileUrl] } }),
        ],
        final_answer: [
          reply({ think: 'Nothing read.', answer: { text: 'I could not read the report.', references: [] } }),
        ],
      },
    });
    llms.push(llm);
    const run = await runBuiltCli(
      ['ask', `What was the Q3 operating margin in ${fileUrl}?`, '--max-steps', '2'],
      env(llm),
    );
    expect(run.code).toBe(0);
    // The progress line is clipped to the terminal's width; the reason comes first.
    expect(run.stderr).toMatch(/✗ file:\/\/\/.*q3%20report\.md: local files are off/);
    expect(run.stdout).toContain('could not read the report');
  });
});
