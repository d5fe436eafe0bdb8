import * as z from 'zod';
import type { ActionName as EventActionName } from '../../events/deep-search-result.js';
import type { ActionDefinition, ActionGate, ActionLimits } from './action-definition.js';
import { answerAction } from './answer-action.js';
import { codingAction } from './coding-action.js';
import { reflectAction } from './reflect-action.js';
import { searchAction } from './search-action.js';
import { visitAction } from './visit-action.js';

/**
 * Every action the agent can take, in the order the prompt lists them. Adding an action is one
 * file (a `defineAction`) and one line here: the names, the step schema, the prompt's action list
 * and the `AgentStep` type all derive from this list.
 */
export const actionRegistry = [searchAction, visitAction, reflectAction, codingAction, answerAction] as const;

type RegisteredAction = (typeof actionRegistry)[number];
export type ActionName = RegisteredAction['name'];
// The events layer spells the names out (events/deep-search-result.ts); both directions must hold.
type SameNames<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
const namesMatchEvents: SameNames<ActionName, EventActionName> = true;
void namesMatchEvents;
type PayloadOf<A> = A extends ActionDefinition<string, infer Payload> ? Payload : never;

/** One validated step: `think`, the action's name, and that action's payload under its name. */
export type AgentStep = {
  [A in RegisteredAction as A['name']]: { think: string; action: A['name'] } & {
    [K in A['name']]: PayloadOf<A>;
  };
}[ActionName];

export const actionNames: readonly ActionName[] = actionRegistry.map((action) => action.name);

const byName = new Map<string, ActionDefinition<ActionName, unknown>>(
  actionRegistry.map((action) => [action.name, action as ActionDefinition<ActionName, unknown>]),
);

export function actionDefinition(name: ActionName): ActionDefinition<ActionName, unknown> {
  return byName.get(name)!;
}

/**
 * Which actions the next step may take: each action's own gate, minus those switched off for
 * this step. Never empty: answering is always possible as a last resort.
 */
export function allowedActions(gate: ActionGate): ActionName[] {
  const allowed = actionRegistry
    .filter((action) => !gate.state.disabled.has(action.name) && action.isAllowed(gate))
    .map((action) => action.name);
  return allowed.length > 0 ? allowed : ['answer'];
}

/** The system prompt's list of actions, for the allowed ones only. */
export function renderActions(
  allowed: readonly ActionName[],
  input: Parameters<ActionDefinition['prompt']>[0],
): string {
  return allowed
    .map((name) => `${actionDefinition(name).prompt(input)}\n${fieldGuide(name, input.limits)}`)
    .join('\n');
}

/**
 * One action's reply shape in words and by example (see `ActionDefinition.guide`): the nested
 * shape the step schema asks for, `{think, step: {action, <action>: {...}}}`.
 */
function fieldGuide(name: ActionName, limits: ActionLimits): string {
  const { fields, example } = actionDefinition(name).guide(limits);
  const reply = {
    think: 'One to three sentences: what you know, what is missing, why this action.',
    step: { action: name, [name]: example },
  };
  return [
    `To ${name}, reply with "think" and "step": {"action": "${name}", "${name}": {...}}, where:`,
    ...fields.map((field) => `- ${name}.${field}`),
    `Example: ${JSON.stringify(reply)}`,
  ].join('\n');
}

/**
 * The step schema for the allowed actions only: `think`, then `step`, one of the allowed actions,
 * each a complete object `{action: "<name>", <name>: payload}` whose payload is required. A server
 * that constrains decoding to this schema cannot close the reply after "action" (as it could when
 * every payload was an optional field of one object). Validation turns the reply back into the
 * flat `AgentStep` the loop uses; replies in the flat shape are lifted by `liftStepReply`.
 */
export function createActionSchema(allowed: readonly ActionName[], limits: ActionLimits) {
  // The same few schemas recur every step; reusing the object lets its JSON schema be converted once.
  const key = `${allowed.join(',')}|${limits.maxQueries}|${limits.maxUrls}|${limits.maxGapQuestions}|${limits.maxReferences}`;
  let schema = schemas.get(key);
  if (!schema) {
    schema = buildActionSchema(allowed, limits);
    schemas.set(key, schema);
  }
  return schema;
}

const schemas = new Map<string, z.ZodType<AgentStep>>();

/** Longest `think`: a small model's think can otherwise run into the output limit before the payload. */
const maxThinkChars = 800;

function buildActionSchema(allowed: readonly ActionName[], limits: ActionLimits): z.ZodType<AgentStep> {
  const branches = allowed.map((name) =>
    z.object({
      action: z.literal(name),
      [name]: actionDefinition(name).schema(limits),
    }),
  );
  const step =
    branches.length === 1
      ? branches[0]!
      : // A discriminated union reports a wrong action as such, not as every branch's mismatch; its
        // JSON schema's oneOf is sent as anyOf (see toJsonSchema).
        z.discriminatedUnion('action', branches as unknown as [(typeof branches)[0], ...typeof branches]);
  return z
    .object({
      think: z
        .string()
        .max(maxThinkChars)
        .describe(
          'One to three sentences: what you know, what is missing, why this action. Language of the question.',
        ),
      // No description: the action guides in the prompt say it, and the schema is re-read every step.
      step,
    })
    .transform(({ think, step }) => ({ think, ...step }) as unknown as AgentStep);
}
