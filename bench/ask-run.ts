/**
 * `npm run bench:ask`: the built CLI answers a two-hop question end to end against a fake
 * OpenAI-compatible LLM with a fixed latency per call, a fake SearXNG and a local web on 127.0.0.1.
 * The first answer is rejected by the evaluator, analysed, and a second round of search and reading
 * fixes it: the full loop. Prints steps, tokens, wall time and the time not spent waiting on the LLM.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startFakeOpenAi } from '../src/testing/fake-openai-server.js';
import { oscarsPage, parasitePage } from '../test/helpers/agent-harness.js';
import { startFakeSearxng } from '../test/helpers/fake-searxng-server.js';
import { startFakeWeb } from '../test/helpers/fake-web-server.js';
import { median } from './extraction-score.js';

const runs = Number(process.env.BENCH_RUNS ?? 5);
const llmLatencyMs = Number(process.env.BENCH_LLM_LATENCY_MS ?? 200);
const cliPath = fileURLToPath(new URL('../dist/cli/main.js', import.meta.url));
const question = 'Who directed the film that won Best Picture the year Parasite premiered?';

const directorPage = `<html><head><title>Peter Farrelly</title></head><body><article><h1>Peter Farrelly</h1>
<p>Peter John Farrelly (born December 17, 1956) is an American film director, screenwriter and producer.</p>
<p>In 2018 he directed Green Book, which won the Academy Award for Best Picture at the 91st Academy Awards.</p>
</article></body></html>`;

function reply(object: unknown) {
  return {
    content: JSON.stringify(object),
    usage: { prompt_tokens: 1500, completion_tokens: 90 },
    delayMs: llmLatencyMs,
  };
}

/** An agent step in the shape its schema asks for: `{think, step: {action, <action>: payload}}`. */
function agentStep({ think, ...step }: { think: string; action: string } & Record<string, unknown>) {
  return reply({ think, step });
}

async function oneRun(): Promise<Record<string, number>> {
  const web = await startFakeWeb({
    pages: {
      '/parasite': { html: parasitePage },
      '/oscars': { html: oscarsPage },
      '/farrelly': { html: directorPage },
    },
  });
  const searxng = await startFakeSearxng({
    results: {
      'Parasite premiere date': [
        {
          url: `${web.url}/parasite`,
          title: 'Parasite (2019 film)',
          content: 'Premiered at Cannes on 21 May 2019.',
        },
      ],
      'Best Picture 2019': [
        { url: `${web.url}/oscars`, title: '91st Academy Awards', content: 'Green Book won Best Picture.' },
      ],
      'Green Book director': [
        { url: `${web.url}/farrelly`, title: 'Peter Farrelly', content: 'Director of Green Book.' },
      ],
    },
  });
  const oscars = `${web.url}/oscars`;
  const llm = await startFakeOpenAi({
    routes: {
      agent_action: [
        agentStep({
          think: 'Two facts to find.',
          action: 'search',
          search: { queries: ['Parasite premiere date', 'Best Picture 2019'] },
        }),
        agentStep({
          think: 'Read both.',
          action: 'visit',
          visit: { targets: [`${web.url}/parasite`, oscars] },
        }),
        agentStep({
          think: 'Answer.',
          action: 'answer',
          answer: {
            text: 'Green Book won Best Picture in 2019[^1].',
            references: [{ url: oscars, quote: 'Green Book won Best Picture.' }],
          },
        }),
        agentStep({
          think: 'Find the director.',
          action: 'search',
          search: { queries: ['Green Book director'] },
        }),
        agentStep({ think: 'Read it.', action: 'visit', visit: { targets: [`${web.url}/farrelly`] } }),
        agentStep({
          think: 'Now complete.',
          action: 'answer',
          answer: {
            text: 'Peter Farrelly directed Green Book[^1], which won Best Picture in 2019[^2], the year Parasite premiered[^3].',
            references: [
              { url: `${web.url}/farrelly`, quote: 'In 2018 he directed Green Book' },
              { url: oscars, quote: 'Green Book won Best Picture.' },
              {
                url: `${web.url}/parasite`,
                quote: 'premiered at the 2019 Cannes Film Festival on 21 May 2019',
              },
            ],
          },
        }),
      ],
      evaluation_criteria: [
        reply({
          think: 'multi-hop',
          needsFreshness: false,
          needsPlurality: false,
          needsCompleteness: false,
          needsStrict: false,
        }),
      ],
      evaluate_definitive: [
        reply({ think: 'Does not name the director.', pass: false, improvement: 'Name the director.' }),
        reply({ think: 'Direct.', pass: true, improvement: '' }),
      ],
      // The rewriter (on by default) keeps the agent's queries.
      query_rewrite: [
        reply({
          think: 'Keep them.',
          queries: [
            { query: 'Parasite premiere date', timeRange: 'none', language: '' },
            { query: 'Best Picture 2019', timeRange: 'none', language: '' },
          ],
        }),
        reply({
          think: 'Keep it.',
          queries: [{ query: 'Green Book director', timeRange: 'none', language: '' }],
        }),
      ],
      failure_analysis: [
        reply({
          recap: 'Found the film.',
          blame: 'Did not find the director.',
          improvement: 'Search for the director of Green Book.',
        }),
      ],
    },
  });
  try {
    const started = performance.now();
    const stdout = await runCli([
      'ask',
      question,
      '--json',
      '--quiet',
      '--allow-private-network',
      '--llm-base-url',
      `${llm.url}/v1`,
      '--llm-model',
      'fake-model',
      '--searxng-url',
      searxng.url,
    ]);
    const processMs = performance.now() - started;
    llm.assertConsumed();
    const result = JSON.parse(stdout);
    if (!String(result.answer).includes('Peter Farrelly'))
      throw new Error(`unexpected answer: ${result.answer}`);
    return {
      steps: result.steps,
      llmCalls: result.usage.llmCalls,
      promptTokens: result.usage.promptTokens,
      completionTokens: result.usage.completionTokens,
      totalTokens: result.usage.totalTokens,
      references: result.references.length,
      durationMs: result.durationMs,
      llmMs: result.timing.llmMs,
      searchMs: result.timing.searchMs,
      readMs: result.timing.readMs,
      ownMs: result.timing.ownMs,
      firstLlmCallMs: result.timing.firstLlmCallMs,
      firstAnswerTokenMs: result.timing.firstAnswerTokenMs,
      // Everything after the first LLM request starts, over the time spent waiting on the model
      // (all calls here are on the critical path): 1.0 means nothing but the model.
      wallAfterFirstLlmOverLlm: (result.durationMs - result.timing.firstLlmCallMs) / result.timing.llmMs,
      processMs,
    };
  } finally {
    await Promise.all([llm.close(), searxng.close(), web.close()]);
  }
}

/**
 * The built CLI with a data folder of its own, new for each run: its cache, run store and
 * knowledge never the user's, and never an earlier run's (whose fake servers' ports this run's
 * may reuse: a cached search would then name pages of a server that is gone).
 */
function runCli(args: string[]): Promise<string> {
  const dataHome = mkdtempSync(join(tmpdir(), 'deepsearch-bench-ask-'));
  return new Promise<string>((resolve, reject) => {
    execFile(
      process.execPath,
      [cliPath, ...args],
      { env: { PATH: process.env.PATH ?? '', XDG_DATA_HOME: dataHome } },
      (error, stdout, stderr) => {
        if (error) reject(new Error(`deepsearch exited ${error.code}: ${stderr}`));
        else resolve(stdout);
      },
    );
  }).finally(() => rmSync(dataHome, { recursive: true, force: true }));
}

const results: Array<Record<string, number>> = [];
for (let run = 0; run < runs; run++) results.push(await oneRun());
console.log(`bench:ask — built CLI, fake LLM at ${llmLatencyMs} ms per call, ${runs} runs (median)`);
for (const key of Object.keys(results[0]!)) {
  const value = median(results.map((result) => result[key]!));
  console.log(
    `  ${key.padEnd(25)} ${Number.isInteger(value) ? value : value.toFixed(key.endsWith('OverLlm') ? 3 : 1)}`,
  );
}
