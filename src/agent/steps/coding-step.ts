import { throwIfAborted } from '../../core/errors/index.js';
import type { StepOutcome } from '../actions/action-definition.js';
import type { RunContext } from '../run-context.js';
import { buildCodingInput } from './coding-input.js';

const maxEventOutputChars = 2000;
const maxNoteChars = 400;

/**
 * Runs the model's JavaScript over what the run gathered. A result becomes 'coding' knowledge
 * (purpose → result, with the code and the pages it read); a failure of the code is a diary note
 * the model can act on and a warning, never an error out of the step.
 */
export async function runCodingStep(
  context: RunContext,
  input: { question: string; code: string; purpose?: string },
): Promise<StepOutcome> {
  const { step, codeRunner } = context;
  // Not reached: the action is offered only to a run with a runner.
  if (!codeRunner) return { note: 'no code can be run in this run: find the value another way.' };
  const purpose = input.purpose?.trim() || input.question;
  const gathered = buildCodingInput(context.state, input.question, context.config.sandbox.maxInputChars);
  const result = await codeRunner.run({
    code: input.code,
    input: gathered.input,
    signal: context.signal,
  });
  if (result.ok) {
    const text = typeof result.output === 'string' ? result.output : JSON.stringify(result.output);
    context.emit({
      type: 'coding',
      step,
      purpose,
      code: input.code,
      ok: true,
      output: clip(text, maxEventOutputChars),
      logs: result.logs,
      ms: result.ms,
    });
    return {
      note: `ran code to compute "${purpose}"; it returned: ${clip(text, maxNoteChars)}`,
      knowledge: [
        { type: 'coding', question: purpose, answer: text, urls: gathered.urls, step, code: input.code },
      ],
    };
  }
  // Cancelled or out of time: the loop decides what that means, as for any other step.
  if (result.error.kind === 'aborted') throwIfAborted(context.signal);
  const { kind, message } = result.error;
  context.emit({
    type: 'coding',
    step,
    purpose,
    code: input.code,
    ok: false,
    error: result.error,
    logs: result.logs,
    ms: result.ms,
  });
  context.emit({
    type: 'warning',
    step,
    message: `the code for "${clip(purpose, 80)}" failed (${kind}): ${message}`,
  });
  const logs = result.logs.length ? ` Its console output: ${clip(result.logs.join(' | '), 200)}` : '';
  return {
    note: `ran code to compute "${purpose}" but it failed (${kind}): ${clip(message, maxNoteChars)}.${logs} Fix the code or find the value another way.`,
  };
}

function clip(text: string, maxChars: number): string {
  return text.length > maxChars ? `${text.slice(0, maxChars)}…` : text;
}
