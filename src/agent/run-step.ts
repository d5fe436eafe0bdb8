import { isStructuredOutputError } from '../core/errors/index.js';
import type { StepOutcome } from './actions/action-definition.js';
import {
  type ActionName,
  type AgentStep,
  actionDefinition,
  allowedActions,
  createActionSchema,
} from './actions/action-registry.js';
import { liftStepReply } from './actions/lift-step-reply.js';
import { answerDraft } from './answer-draft.js';
import { actionLimits, buildAgentPrompt } from './context/build-agent-prompt.js';
import { prefetchPages } from './context/prefetch-pages.js';
import { rankUrlCandidates } from './context/rank-url-candidates.js';
import { prepareQuestionVector } from './context/semantic-snippets.js';
import type { EvaluationCriterion } from './evaluation/criteria.js';
import { callLlm, type RunContext } from './run-context.js';
import type { FinalAnswer } from './steps/final-answer.js';
import { noteProgress } from './steps/note-progress.js';

const maxPendingQuestions = 8;

/** One regular step: pick the question, gate the actions, ask the model, carry out its choice. */
export async function runStep(
  context: RunContext,
  criteria: () => Promise<EvaluationCriterion[]>,
): Promise<FinalAnswer | undefined> {
  const { state, config } = context;
  const question = state.gaps.next();
  state.currentQuestion = question;
  const allowed = allowedActions({
    state,
    step: context.step,
    noDirectAnswer: config.agent.noDirectAnswer,
    maxPendingQuestions,
    codingEnabled: config.sandbox.enabled && context.codeRunner !== undefined,
  });
  state.disabled = new Set();
  const urlRanking = allowed.includes('visit') ? await rankUrlCandidates(context, question) : [];
  await prepareQuestionVector(context, question);
  const limits = actionLimits(context);
  const prompt = buildAgentPrompt(context, { question, allowed, urlRanking, limits });
  if (allowed.includes('visit')) prefetchPages(context, prompt.urlList.slice(0, limits.maxUrls));
  context.emit({
    type: 'step-start',
    step: context.step,
    question,
    allowed,
    promptTokens: prompt.promptTokens,
    final: false,
  });
  let step: AgentStep;
  try {
    const result = await callLlm(context, {
      role: 'agent',
      system: prompt.system,
      prompt: prompt.prompt,
      schema: createActionSchema(allowed, limits),
      schemaName: 'agent_action',
      // Flat replies and payloads next to `action` are lifted into the nested shape, as repairs.
      repair: liftStepReply,
      // The action guides in the system prompt describe every field with an example.
      fieldsInPrompt: true,
      // Only an answer to the original question can become the final answer worth watching.
      ...(question === state.question && allowed.includes('answer')
        ? { streamText: answerDraft(context) }
        : {}),
    });
    step = result.object;
  } catch (error) {
    if (!isStructuredOutputError(error)) throw error;
    context.budget.invalidOutputs++;
    context.emit({
      type: 'warning',
      step: context.step,
      message:
        "the model's reply could not be used as a step (not in the asked format); asking again next step",
      detail: error.validationMessage,
    });
    applyOutcome(context, question, 'none', {
      note: 'your reply did not match the required JSON format; follow it exactly',
    });
    return undefined;
  }
  context.budget.invalidOutputs = 0;
  context.emit({ type: 'think-delta', step: context.step, delta: step.think });
  context.emit({ type: 'action', step: context.step, action: step.action, think: step.think });
  const payload = (step as unknown as Record<string, unknown>)[step.action];
  const outcome = await actionDefinition(step.action).run(context, {
    question,
    payload,
    think: step.think,
    urlList: state.sourceNumbers.urls(),
    offeredUrls: prompt.urlList,
    criteria,
  });
  applyOutcome(context, question, step.action, outcome);
  return outcome.final;
}

/** The loop's one place that turns what a step did into the state the next step sees. */
export function applyOutcome(
  context: RunContext,
  question: string,
  action: ActionName | 'none',
  outcome: StepOutcome,
): void {
  const { state } = context;
  const switchedOff = noteProgress(context, action, outcome.noProgress);
  const note = switchedOff ? `${outcome.note} ${switchedOff}` : outcome.note;
  state.diary.add({ step: context.step, action, question, note });
  if (outcome.disableNext && action !== 'none') state.disabled.add(action);
  if (outcome.knowledge) state.knowledge.push(...outcome.knowledge);
  context.emit({
    type: 'step-end',
    step: context.step,
    action,
    usage: context.budget.usage(),
    budget: context.budget.report(),
  });
}
