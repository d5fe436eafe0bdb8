import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FakeHttpServer } from '../../src/testing/fake-http-server.js';
import {
  type FakeOpenAiReply,
  type FakeOpenAiRequest,
  type FakeOpenAiServer,
  startFakeOpenAi,
} from '../../src/testing/fake-openai-server.js';
import { startFakeSearxng } from '../helpers/fake-searxng-server.js';
import { alwaysPassingEvaluation } from '../helpers/passing-evaluation.js';
import { runBuiltCli } from '../helpers/run-built-cli.js';

/**
 * Four questions: three answered directly (one right, one wrong, one "I could not find"), one after
 * a search whose hit is quoted. The fake LLM answers by question, so concurrency cannot mix them up.
 */
const questions = [
  { id: 'q1', question: 'What is the capital of Australia?', answer: 'Canberra' },
  { id: 'q2', question: 'How many moons does Mars have?', answer: '2' },
  { id: 'q3', question: 'Who painted the Zorblax mural in Lund?', answer: 'Anna Berg' },
  { id: 'q4', question: 'When did Parasite premiere?', answer: '21 May 2019' },
];
const hitText = 'Parasite premiered at Cannes on 21 May 2019.';
const agentAnswers: Record<string, string> = {
  q1: 'Canberra is the capital of Australia.',
  q2: 'Mars has three moons.',
  q3: 'I could not find who painted it.',
};
// The judge's verdict, by a phrase of the answer it is shown.
const verdicts: Array<[string, string]> = [
  ['Canberra', 'correct'],
  ['three moons', 'incorrect'],
  ['could not find', 'not_attempted'],
  ['21 May 2019', 'correct'],
];
const usage = { prompt_tokens: 1000, completion_tokens: 100 };
const judgeUsage = { prompt_tokens: 200, completion_tokens: 20 };

let searxng: FakeHttpServer;
let work: string;
let dataset: string;
let configFile: string;

beforeAll(async () => {
  searxng = await startFakeSearxng({
    results: {
      'Parasite premiere': [{ url: 'https://films.example/parasite', title: 'Parasite', content: hitText }],
    },
  });
  work = mkdtempSync(join(tmpdir(), 'cli-eval-'));
  dataset = join(work, 'questions.jsonl');
  writeFileSync(dataset, `${questions.map((question) => JSON.stringify(question)).join('\n')}\n`);
  configFile = join(work, 'deepsearch.config.json');
  // $ per million tokens: the agent's model 1 in / 10 out, the judge's 0.5 in / 2 out.
  writeFileSync(
    configFile,
    JSON.stringify({
      runs: {
        prices: {
          'fake-model': { inputPerMillion: 1, outputPerMillion: 10 },
          'judge-model': { inputPerMillion: 0.5, outputPerMillion: 2 },
        },
      },
    }),
  );
});

afterAll(async () => {
  await searxng.close();
});

function questionOf(request: FakeOpenAiRequest): (typeof questions)[number] {
  const found = questions.find((item) => request.prompt.includes(item.question));
  if (!found) throw new Error(`no known question in request #${request.index}`);
  return found;
}

function reply(object: unknown, replyUsage = usage): FakeOpenAiReply {
  return { content: JSON.stringify(object), usage: replyUsage };
}

/** The evaluator of every answer with references: simple question, definitive answer (any number of calls). */
const alwaysPassing = alwaysPassingEvaluation(reply);

/** The fake LLM for the agent, the evaluator and the judge; `hold` makes the agent wait on a question. */
function startLlm(options: { hold?: string } = {}): Promise<FakeOpenAiServer> {
  return startFakeOpenAi({
    routes: {
      agent_action: (request) => {
        const { id } = questionOf(request);
        if (id === options.hold) return { delayMs: 60_000 };
        if (id !== 'q4')
          return reply({
            think: 'Known.',
            action: 'answer',
            answer: { text: agentAnswers[id], references: [] },
          });
        if (!request.prompt.includes(hitText))
          return reply({ think: 'Search.', action: 'search', search: { queries: ['Parasite premiere'] } });
        return reply({
          think: 'Found.',
          action: 'answer',
          answer: {
            text: 'Parasite premiered on 21 May 2019[^1].',
            references: [{ url: 'https://films.example/parasite', quote: hitText }],
          },
        });
      },
      ...alwaysPassing,
      grade_answer: (request) => {
        const answer = request.prompt.split('<predicted-answer>')[1] ?? '';
        const grade = verdicts.find(([phrase]) => answer.includes(phrase))?.[1] ?? 'incorrect';
        return reply({ rationale: `graded ${grade}`, grade }, judgeUsage);
      },
    },
  });
}

function cliEnv(llm: FakeOpenAiServer): Record<string, string> {
  return {
    DEEPSEARCH_LLM_BASE_URL: `${llm.url}/v1`,
    DEEPSEARCH_LLM_MODEL: 'fake-model',
    DEEPSEARCH_SEARCH_PROVIDER: 'searxng',
    DEEPSEARCH_SEARXNG_URL: searxng.url,
    DEEPSEARCH_CONFIG: configFile,
  };
}

// biome-ignore lint/suspicious/noExplicitAny: records are checked field by field with toMatchObject
function readLines(file: string): Array<Record<string, any>> {
  return readFileSync(file, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line));
}

const evalArgs = (out: string, ...more: string[]) => [
  'eval',
  '--dataset',
  dataset,
  '--out',
  out,
  '--judge-model',
  'judge-model',
  '--no-query-rewrite',
  '--allow-private-network',
  ...more,
];

/**
 * Starts an evaluation whose fake LLM holds the agent's call on question `hold`, and resolves once
 * that call has arrived (and `ready` holds): the moment to kill or interrupt the CLI.
 */
async function startHeldRun(options: { out: string; hold: string; args?: string[]; ready?: () => boolean }) {
  const held = await startLlm({ hold: options.hold });
  let child: ChildProcess | undefined;
  const run = runBuiltCli(evalArgs(options.out, ...(options.args ?? [])), cliEnv(held), {
    timeoutMs: 60_000,
    onSpawn: (spawned) => (child = spawned),
  });
  const question = questions.find((item) => item.id === options.hold)!.question;
  await until(
    () => held.requests.some((request) => request.prompt.includes(question)) && (options.ready?.() ?? true),
  );
  return { held, run, child: child! };
}

/** Resolves when `check` holds, polling the world the CLI writes to (no fixed sleeps). */
async function until(check: () => boolean, timeoutMs = 60_000): Promise<void> {
  const started = Date.now();
  while (!check()) {
    if (Date.now() - started > timeoutMs) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

// Several runs of the built CLI per test, each starting Node and the agent: generous time on a busy machine.
describe('deepsearch eval (built CLI, fake LLM and judge, fake search)', { timeout: 90_000 }, () => {
  it('asks, grades and summarises every question, with per-question cost from the price table', async () => {
    const llm = await startLlm();
    const out = join(work, 'full.jsonl');
    const report = join(work, 'report.md');
    // With the run store on: each question is a run of the CLI, marked as an evaluation's.
    const runs = { DEEPSEARCH_NO_RUNS: '0', DEEPSEARCH_RUNS_FILE: join(work, 'eval-runs.sqlite') };
    try {
      const run = await runBuiltCli(evalArgs(out, '--concurrency', '2', '--json', '--report', report), {
        ...cliEnv(llm),
        ...runs,
      });
      expect(run.stderr).not.toContain('error');
      expect(run.code).toBe(0);
      const records = Object.fromEntries(readLines(out).map((record) => [record.id, record]));
      expect(Object.keys(records).sort()).toEqual(['q1', 'q2', 'q3', 'q4']);
      expect(records.q1).toMatchObject({
        status: 'graded',
        grade: 'correct',
        rationale: 'graded correct',
        answer: 'Canberra is the capital of Australia.',
        expected: 'Canberra',
        // An answer from memory is judged (criteria, definitive): medium confidence, three calls.
        confidence: 'medium',
        steps: 1,
        tokens: { prompt: 3000, completion: 300, total: 3300 },
        references: [],
        judge: { model: 'judge-model', tokens: { prompt: 200, completion: 20, total: 220 } },
      });
      // 3 × (1000 × $1 + 100 × $10) / 1M; the judge (200 × $0.5 + 20 × $2) / 1M.
      expect(records.q1.costUsd).toBeCloseTo(0.006, 10);
      expect(records.q1.judge.costUsd).toBeCloseTo(0.00014, 10);
      expect(records.q2.grade).toBe('incorrect');
      expect(records.q3.grade).toBe('not_attempted');
      // Search, then the answer, then the evaluator's criteria and definitive check: four calls.
      expect(records.q4).toMatchObject({
        grade: 'correct',
        steps: 2,
        tokens: { total: 4400 },
        references: [{ url: 'https://films.example/parasite', quote: hitText.slice(0, -1), verified: true }],
      });
      expect(records.q4.costUsd).toBeCloseTo(0.008, 10);

      const summary = JSON.parse(run.stdout).summary;
      expect(summary).toMatchObject({
        questions: 4,
        graded: 4,
        errors: 0,
        correct: 2,
        incorrect: 1,
        notAttempted: 1,
        accuracy: 0.5,
        notAttemptedRate: 0.25,
        calibration: [
          { confidence: 'high', answers: 1, correct: 1, accuracy: 1 },
          { confidence: 'medium', answers: 3, correct: 1, accuracy: 1 / 3 },
          { confidence: 'low', answers: 0, correct: 0, accuracy: null },
        ],
        // Steps 1, 1, 1, 2: median 1, p90 1.7 (linear between ranks); tokens 3300 ×3 and 4400.
        steps: { median: 1, total: 5 },
        tokens: { median: 3300, total: 14300 },
      });
      expect(summary.accuracyAttempted).toBeCloseTo(2 / 3, 10);
      expect(summary.steps.p90).toBeCloseTo(1.7, 10);
      expect(summary.tokens.p90).toBeCloseTo(4070, 6);
      expect(summary.costUsd.total).toBeCloseTo(0.026, 10);
      expect(summary.judgeCostUsd).toBeCloseTo(4 * 0.00014, 10);
      // Plain progress lines off a terminal, one per question.
      expect(run.stderr.match(/^\[\d\/4\] /gm)).toHaveLength(4);

      const markdown = readFileSync(report, 'utf8');
      expect(markdown).toContain('| accuracy | 50.0% |');
      expect(markdown).toContain('| accuracy among attempted | 66.7% |');
      expect(markdown).toMatch(
        /\| q4 \| correct \| Parasite premiered on 21 May 2019\[\^1\]\. \| 21 May 2019 \| high \| 2 \| 4400 \| \$0\.0080 \| .* \| 1\/1 \|/,
      );
      expect(llm.problems).toEqual([]);
      const stored = JSON.parse((await runBuiltCli(['runs', 'list', '--json'], runs)).stdout);
      expect(stored).toHaveLength(4);
      for (const each of stored)
        expect(each).toMatchObject({ source: 'cli', mode: 'search', evaluation: true });
    } finally {
      await llm.close();
    }
  });

  it('prints the summary table without --json, and refuses to append to results without --resume', async () => {
    const llm = await startLlm();
    const out = join(work, 'table.jsonl');
    try {
      const run = await runBuiltCli(evalArgs(out, '--limit', '1'), cliEnv(llm));
      expect(run.code).toBe(0);
      expect(run.stdout).toMatch(/accuracy\s+100\.0%/);
      expect(run.stdout).toMatch(/questions\s+1 graded of 1/);
      expect(run.stdout).toMatch(/cost\s+median \$0\.0060/);
      const again = await runBuiltCli(evalArgs(out, '--limit', '1'), cliEnv(llm));
      expect(again.code).toBe(2);
      expect(again.stderr).toContain('already holds results: add --resume to continue it');
      // A --report or --out that cannot be written is refused before any question, not after all of them.
      const calls = llm.requests.length;
      const badReport = await runBuiltCli(
        evalArgs(join(work, 'fresh.jsonl'), '--limit', '1', '--report', join(work, 'missing', 'r.md')),
        cliEnv(llm),
      );
      expect(badReport.code).toBe(2);
      expect(badReport.stderr).toContain(`cannot write --report ${join(work, 'missing', 'r.md')}: no folder`);
      const badOut = await runBuiltCli(
        evalArgs(join(work, 'missing', 'o.jsonl'), '--limit', '1'),
        cliEnv(llm),
      );
      expect(badOut.code).toBe(2);
      expect(badOut.stderr).toContain('cannot write --out');
      expect(llm.requests.length).toBe(calls);
    } finally {
      await llm.close();
    }
  });

  it('after a SIGKILL mid-way, --resume runs only the questions not graded and appends them', async () => {
    const out = join(work, 'killed.jsonl');
    // q1 and q2 are written; q3's agent call is waiting on the LLM.
    const { held, run, child } = await startHeldRun({
      out,
      hold: 'q3',
      ready: () => {
        try {
          return readLines(out).length === 2;
        } catch {
          return false;
        }
      },
    });
    try {
      child.kill('SIGKILL');
      expect((await run).code).not.toBe(0);
    } finally {
      await held.close();
    }
    expect(readLines(out).map((record) => record.id)).toEqual(['q1', 'q2']);

    const llm = await startLlm();
    try {
      const resumed = await runBuiltCli(evalArgs(out, '--resume', '--json'), cliEnv(llm));
      expect(resumed.code).toBe(0);
      expect(resumed.stderr).toContain('resuming: 2 questions already graded');
      // Nothing already graded is asked again, neither to the agent nor to the judge (GET /v1/models,
      // the context-window probe, is no question).
      const calls = llm.requests.filter((request) => request.route !== undefined);
      expect([...new Set(calls.map((request) => questionOf(request).id))].sort()).toEqual(['q3', 'q4']);
      // q3: the agent's answer from memory, its two judges and its grade; q4: four calls and its grade.
      expect(calls).toHaveLength(9);
      expect(readLines(out).map((record) => record.id)).toEqual(['q1', 'q2', 'q3', 'q4']);
      expect(JSON.parse(resumed.stdout).summary).toMatchObject({
        graded: 4,
        correct: 2,
        incorrect: 1,
        notAttempted: 1,
      });
    } finally {
      await llm.close();
    }
  });

  it('stops cleanly on SIGINT: exit 130, the graded results written and summarised', async () => {
    const out = join(work, 'interrupted.jsonl');
    const { held, run: interrupted, child } = await startHeldRun({ out, hold: 'q2', args: ['--json'] });
    try {
      child.kill('SIGINT');
      const run = await interrupted;
      expect(run.code).toBe(130);
      expect(run.stderr).toContain('run the same command with --resume to continue');
      expect(readLines(out).map((record) => record.id)).toEqual(['q1']);
      expect(JSON.parse(run.stdout)).toMatchObject({
        stopped: 'interrupted',
        summary: { questions: 4, graded: 1, notRun: 3, correct: 1 },
      });
    } finally {
      await held.close();
    }
  });
});

describe('deepsearch eval --offline-corpus (HotpotQA)', { timeout: 90_000 }, () => {
  const hotpot = new URL('../fixtures/eval/hotpotqa.json', import.meta.url).pathname;
  const derrickson = 'Scott Derrickson (born July 16, 1966) is an American director';

  it("searches only the dataset's pooled paragraphs in a local knowledge base, and cites them verified", async () => {
    const llm = await startFakeOpenAi({
      routes: {
        agent_action: (request) => {
          if (request.prompt.includes('Corliss Archer'))
            return reply({
              think: 'Known.',
              action: 'answer',
              answer: { text: 'Chief of Protocol', references: [] },
            });
          // The hit whose line holds the quote: a model cites the source the quote is from.
          const hit = /(kb:hotpotqa\/[^\s"<)]+)[^\n]*Scott Derrickson \(born/.exec(request.prompt)?.[1];
          if (!hit || !request.prompt.includes(derrickson))
            return reply({
              think: 'Search.',
              action: 'search',
              search: { queries: ['Scott Derrickson nationality'] },
            });
          return reply({
            think: 'Both American.',
            action: 'answer',
            answer: { text: 'Yes, both are American[^1].', references: [{ url: hit, quote: derrickson }] },
          });
        },
        ...alwaysPassing,
        grade_answer: () => reply({ rationale: 'Same meaning.', grade: 'correct' }, judgeUsage),
      },
    });
    const out = join(work, 'hotpot.jsonl');
    try {
      const before = searxng.requests.length;
      const run = await runBuiltCli(
        ['eval', '--dataset', hotpot, '--offline-corpus', '--out', out, '--json', '--no-query-rewrite'],
        cliEnv(llm),
      );
      expect(run.stderr).toContain('offline corpus: 6 paragraphs');
      expect(run.code).toBe(0);
      expect(searxng.requests.length).toBe(before);
      const [first, second] = readLines(out);
      expect(first).toMatchObject({ id: '0', grade: 'correct', steps: 2 });
      expect(first!.references).toHaveLength(1);
      expect(first!.references[0]).toMatchObject({ quote: derrickson, verified: true });
      expect(first!.references[0].url).toMatch(/^kb:hotpotqa\//);
      expect(second).toMatchObject({ id: '1', grade: 'correct', answer: 'Chief of Protocol' });
      expect(JSON.parse(run.stdout).summary).toMatchObject({ graded: 2, accuracy: 1 });
    } finally {
      await llm.close();
    }
  });

  it('refuses --offline-corpus for a dataset without paragraphs, before any LLM call', async () => {
    const llm = await startLlm();
    try {
      const run = await runBuiltCli(['eval', '--dataset', dataset, '--offline-corpus'], cliEnv(llm));
      expect(run.code).toBe(2);
      expect(run.stderr).toMatch(
        /--offline-corpus needs context paragraphs to search, and .* \(jsonl\) has none/,
      );
      expect(llm.requests).toHaveLength(0);
    } finally {
      await llm.close();
    }
  });
});
