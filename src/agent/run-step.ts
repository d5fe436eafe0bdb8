import { isStructuredOutputError } from '../errors/index.js';
import { createActionSchema, toAgentStep } from './action-schema.js';
import { allowedActions } from './allowed-actions.js';
import { buildAgentPrompt } from './context/build-agent-prompt.js';
import type { EvaluationCriterion } from './evaluation/criteria.js';
import { callLlm, type RunContext } from './run-context.js';
import { runAnswerStep } from './steps/answer-step.js';
import type { FinalAnswer } from './steps/final-answer.js';
import { runReflectStep } from './steps/reflect-step.js';
import { runSearchStep } from './steps/search-step.js';
import { runVisitStep } from './steps/visit-step.js';

const maxPendingQuestions = 8;

/** One regular step: pick the question, gate the actions, ask the model, carry out its choice. */
export async function runStep(
  context: RunContext,
  criteria: () => Promise<EvaluationCriterion[]>,
): Promise<FinalAnswer | undefined> {
  const { state, config } = context;
  const question = state.gaps.next();
  const allowed = allowedActions({
    state,
    step: context.step,
    noDirectAnswer: config.agent.noDirectAnswer,
    maxPendingQuestions,
  });
  state.disabled = new Set();
  const prompt = buildAgentPrompt(context, { question, allowed });
  context.emit({
    type: 'step-start',
    step: context.step,
    question,
    allowed,
    promptTokens: prompt.promptTokens,
    final: false,
  });
  const schema = createActionSchema(allowed, {
    maxQueries: config.agent.maxQueriesPerStep,
    maxUrls: config.agent.maxUrlsPerStep,
    maxGapQuestions: 5,
    maxReferences: 10,
  });
  let step: ReturnType<typeof toAgentStep>;
  try {
    const result = await callLlm(context, {
      role: 'agent',
      system: prompt.system,
      prompt: prompt.prompt,
      schema,
      schemaName: 'agent_action',
    });
    step = toAgentStep(result.object);
  } catch (error) {
    if (!isStructuredOutputError(error)) throw error;
    context.budget.invalidOutputs++;
    context.emit({
      type: 'warning',
      step: context.step,
      message: `the model returned an unusable step: ${error.validationMessage}`,
    });
    state.diary.add({
      step: context.step,
      action: 'none',
      question,
      note: 'your reply did not match the required JSON format; follow it exactly',
    });
    context.emit({
      type: 'step-end',
      step: context.step,
      action: 'none',
      usage: context.budget.usage(),
      budget: context.budget.report(),
    });
    return undefined;
  }
  context.budget.invalidOutputs = 0;
  context.emit({ type: 'think-delta', step: context.step, delta: step.think });
  context.emit({ type: 'action', step: context.step, action: step.action, think: step.think });
  let final: FinalAnswer | undefined;
  switch (step.action) {
    case 'search':
      await runSearchStep(context, { question, queries: step.search.queries });
      break;
    case 'visit':
      await runVisitStep(context, { question, targets: step.visit.targets, urlList: prompt.urlList });
      break;
    case 'reflect':
      runReflectStep(context, { question, questions: step.reflect.questions });
      break;
    case 'answer':
      final = await runAnswerStep(context, { question, payload: step.answer, criteria });
      break;
  }
  context.emit({
    type: 'step-end',
    step: context.step,
    action: step.action,
    usage: context.budget.usage(),
    budget: context.budget.report(),
  });
  return final;
}
