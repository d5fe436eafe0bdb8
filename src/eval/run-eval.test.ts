import { APICallError } from '@ai-sdk/provider';
import { describe, expect, it } from 'vitest';
import { isAuthenticationError } from '../core/errors/index.js';
import { createRuntime } from '../runtime/create-runtime.js';
import { createFakeReader } from '../testing/fake-reader.js';
import { createFakeSearch } from '../testing/fake-search.js';
import { createScriptedLlm, type ScriptedStep } from '../testing/scripted-llm.js';
import { scriptedStep } from '../testing/scripted-steps.js';
import { createTestConfig } from '../testing/test-config.js';
import type { EvalQuestion, EvalRecord } from './eval-types.js';
import { runEval } from './run-eval.js';

const questions: EvalQuestion[] = [
  { id: 'a', question: 'What is the capital of France?', answer: 'Paris' },
  { id: 'b', question: 'What is the capital of Peru?', answer: 'Lima' },
  { id: 'c', question: 'What is the capital of Chile?', answer: 'Santiago' },
  { id: 'd', question: 'What is the capital of Spain?', answer: 'Madrid' },
];

const apiError = (statusCode: number) =>
  new APICallError({
    message: statusCode === 401 ? 'Incorrect API key provided' : 'upstream exploded',
    url: 'http://127.0.0.1:9/v1/chat/completions',
    requestBodyValues: {},
    statusCode,
  });

const judged = (object: unknown): ScriptedStep => ({
  object,
  expect: { schemaName: 'grade_answer' },
  usage: { input: 100, output: 10 },
});

function setup(steps: ScriptedStep[]) {
  const llm = createScriptedLlm(steps);
  const runtime = createRuntime({
    config: createTestConfig({
      runs: { prices: { 'scripted-model': { inputPerMillion: 2, outputPerMillion: 4 } } },
    }),
    createModel: () => llm,
    search: createFakeSearch({}),
    reader: createFakeReader({}),
  });
  return { llm, runtime };
}

describe('runEval', () => {
  it('grades with the judge role, maps a letter grade, keeps a failed judge as a resumable error, and stops on a rejected key', async () => {
    const { llm, runtime } = setup([
      scriptedStep.answer('Paris.', []),
      ...scriptedStep.memoryAnswerJudged(),
      // SimpleQA's grader answers with letters; small judges do too.
      judged({ rationale: 'Matches the target.', grade: 'A' }),
      scriptedStep.answer('Lima.', []),
      ...scriptedStep.memoryAnswerJudged(),
      { object: {}, error: apiError(500), expect: { schemaName: 'grade_answer' } },
      { object: {}, error: apiError(401) },
    ]);
    const written: EvalRecord[] = [];
    const run = await runEval({
      runtime,
      questions,
      concurrency: 1,
      pricing: runtime.config.runs.prices,
      onRecord: (record) => written.push(record),
    });
    llm.assertConsumed();
    expect(isAuthenticationError(run.stoppedBy)).toBe(true);
    // Question d never started: the key that failed c would fail it too.
    expect(written.map((record) => [record.id, record.status, record.grade])).toEqual([
      ['a', 'graded', 'correct'],
      ['b', 'error', null],
    ]);
    expect(written[0]).toMatchObject({
      rationale: 'Matches the target.',
      judge: { model: 'scripted-model' },
    });
    // The judge's call: (100 × $2 + 10 × $4) / 1M.
    expect(written[0]!.judge!.costUsd).toBeCloseTo(0.00024, 12);
    // An answer from memory that passed its judges: medium confidence.
    expect(written[1]).toMatchObject({ answer: 'Lima.', confidence: 'medium' });
    expect(written[1]!.error).toMatch(/^judge: .*upstream exploded/);
    expect(run.records).toEqual(written);
  });

  it('writes nothing for a question cancelled mid-way, so --resume asks it again', async () => {
    const controller = new AbortController();
    const { runtime } = setup([
      scriptedStep.answer('Paris.', []),
      ...scriptedStep.memoryAnswerJudged(),
      judged({ rationale: 'ok', grade: 'correct' }),
      { ...scriptedStep.answer('Lima.', []), delayMs: 10_000 },
    ]);
    const written: EvalRecord[] = [];
    const run = await runEval({
      runtime,
      questions,
      concurrency: 1,
      pricing: {},
      signal: controller.signal,
      onStart: (question) => question.id === 'b' && controller.abort(new Error('received SIGINT')),
      onRecord: (record) => written.push(record),
    });
    expect(written.map((record) => record.id)).toEqual(['a']);
    // No price for the model: the cost is unknown, not zero.
    expect(written[0]!.costUsd).toBeNull();
    expect((run.stoppedBy as Error).message).toBe('received SIGINT');
  });
});
