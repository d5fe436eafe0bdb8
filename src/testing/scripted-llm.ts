import type {
  LanguageModelV3,
  LanguageModelV3CallOptions,
  LanguageModelV3Content,
  LanguageModelV3GenerateResult,
  LanguageModelV3StreamPart,
  LanguageModelV3Usage,
} from '@ai-sdk/provider';
import { estimateTokens } from '../platform/llm-context/estimate-tokens.js';

export interface ScriptedExpectation {
  /** The JSON schema name the call must ask for (json-schema mode). */
  schemaName?: string;
  /** Text the system prompt + messages must contain. */
  promptIncludes?: string | string[];
  /** Text they must not contain. */
  promptExcludes?: string | string[];
}

export interface ScriptedStep {
  /** Raw reply, exactly as a model would write it (think tags, fences, broken JSON...). */
  text?: string;
  /** Shorthand: replied as JSON text. */
  object?: unknown;
  /** Sent on the reasoning channel, as reasoning models do. */
  reasoning?: string;
  /** Reported usage; 'none' reports nothing (like servers without usage); default: estimated. */
  usage?: { input: number; output: number } | 'none';
  /** Thrown instead of replying, e.g. an APICallError with a status code. */
  error?: unknown;
  /** Wait before replying; honours the call's abort signal. */
  delayMs?: number;
  /** Streamed calls: wait this long between text deltas, like a model writing slowly. */
  chunkDelayMs?: number;
  /** Streamed calls: characters per text delta (default 16). */
  chunkSize?: number;
  expect?: ScriptedExpectation;
  label?: string;
}

export interface ScriptedCall {
  index: number;
  schemaName: string | undefined;
  system: string;
  /** All non-system messages, joined. */
  prompt: string;
  /** Estimated tokens of system + prompt: what the agent tried to fit in its budget. */
  promptTokens: number;
  temperature: number | undefined;
  maxOutputTokens: number | undefined;
  responseFormat: LanguageModelV3CallOptions['responseFormat'];
  label: string | undefined;
  /** Made through doStream (a streamed request) rather than doGenerate. */
  streamed: boolean;
}

export interface ScriptedLlm extends LanguageModelV3 {
  readonly calls: ScriptedCall[];
  /** Problems seen so far: unexpected calls and unmet expectations. */
  readonly problems: string[];
  readonly remaining: number;
  push(...steps: ScriptedStep[]): void;
  /** Throws if any step was not used or any call was unexpected or broke an expectation. */
  assertConsumed(): void;
}

/**
 * A language model that replies from a queue of steps, in order. An extra call, a call that
 * breaks a step's expectation, or a step never used makes the test fail.
 */
export function createScriptedLlm(
  steps: ScriptedStep[] = [],
  options: { modelId?: string } = {},
): ScriptedLlm {
  const queue = [...steps];
  const calls: ScriptedCall[] = [];
  const problems: string[] = [];

  const next = async (callOptions: LanguageModelV3CallOptions, streamed: boolean): Promise<ScriptedStep> => {
    const call = { ...recordCall(callOptions, calls.length, queue[0]?.label), streamed };
    calls.push(call);
    const step = queue.shift();
    if (!step) {
      const problem = `unexpected LLM call #${call.index + 1} (schema ${call.schemaName ?? 'none'}): no steps left`;
      problems.push(problem);
      throw new Error(`scripted LLM: ${problem}`);
    }
    const violation = checkExpectation(step, call);
    if (violation) {
      problems.push(violation);
      throw new Error(`scripted LLM: ${violation}`);
    }
    if (step.delayMs) await delay(step.delayMs, callOptions.abortSignal);
    if (step.error !== undefined) throw step.error;
    return step;
  };

  const model: ScriptedLlm = {
    specificationVersion: 'v3',
    provider: 'scripted',
    modelId: options.modelId ?? 'scripted-model',
    supportedUrls: {},
    calls,
    problems,
    get remaining() {
      return queue.length;
    },
    push: (...more) => queue.push(...more),
    assertConsumed() {
      const issues = [...problems];
      if (queue.length > 0) {
        issues.push(`${queue.length} scripted step(s) never used: ${queue.map(describeStep).join(', ')}`);
      }
      if (issues.length > 0) throw new Error(`scripted LLM: ${issues.join('; ')}`);
    },
    async doGenerate(callOptions): Promise<LanguageModelV3GenerateResult> {
      const step = await next(callOptions, false);
      const text = replyText(step);
      const content: LanguageModelV3Content[] = [];
      if (step.reasoning) content.push({ type: 'reasoning', text: step.reasoning });
      content.push({ type: 'text', text });
      return {
        content,
        finishReason: { unified: 'stop', raw: 'stop' },
        usage: usageFor(step, calls.at(-1)!, text),
        warnings: [],
      };
    },
    async doStream(callOptions) {
      const step = await next(callOptions, true);
      const text = replyText(step);
      const parts: LanguageModelV3StreamPart[] = [{ type: 'stream-start', warnings: [] }];
      if (step.reasoning) {
        parts.push(
          { type: 'reasoning-start', id: 'r' },
          { type: 'reasoning-delta', id: 'r', delta: step.reasoning },
          { type: 'reasoning-end', id: 'r' },
        );
      }
      parts.push({ type: 'text-start', id: 't' });
      const size = step.chunkSize ?? 16;
      for (let offset = 0; offset < text.length; offset += size) {
        parts.push({ type: 'text-delta', id: 't', delta: text.slice(offset, offset + size) });
      }
      parts.push(
        { type: 'text-end', id: 't' },
        {
          type: 'finish',
          finishReason: { unified: 'stop', raw: 'stop' },
          usage: usageFor(step, calls.at(-1)!, text),
        },
      );
      const { chunkDelayMs } = step;
      return {
        stream: new ReadableStream({
          async pull(controller) {
            const part = parts.shift();
            if (!part) {
              controller.close();
              return;
            }
            if (chunkDelayMs && part.type === 'text-delta')
              await delay(chunkDelayMs, callOptions.abortSignal);
            controller.enqueue(part);
          },
        }),
      };
    },
  };
  return model;
}

/** What a call asked for, as tests read it; the routed LLM matches its routes on it too. */
export function recordCall(
  options: LanguageModelV3CallOptions,
  index: number,
  label: string | undefined,
): Omit<ScriptedCall, 'streamed'> {
  let system = '';
  const rest: string[] = [];
  for (const message of options.prompt) {
    if (message.role === 'system') system += message.content;
    else {
      for (const part of message.content) {
        if (part.type === 'text') rest.push(part.text);
      }
    }
  }
  const prompt = rest.join('\n');
  const format = options.responseFormat;
  return {
    index,
    schemaName: format?.type === 'json' ? format.name : undefined,
    system,
    prompt,
    promptTokens: estimateTokens(system) + estimateTokens(prompt),
    temperature: options.temperature,
    maxOutputTokens: options.maxOutputTokens,
    responseFormat: format,
    label,
  };
}

function checkExpectation(step: ScriptedStep, call: ScriptedCall): string | undefined {
  const expect = step.expect;
  if (!expect) return undefined;
  const where = `call #${call.index + 1}${step.label ? ` (${step.label})` : ''}`;
  if (expect.schemaName !== undefined && expect.schemaName !== call.schemaName) {
    return `${where} asked for schema ${call.schemaName ?? 'none'}, expected ${expect.schemaName}`;
  }
  const haystack = `${call.system}\n${call.prompt}`;
  for (const needle of toList(expect.promptIncludes)) {
    if (!haystack.includes(needle)) return `${where}: prompt does not contain ${JSON.stringify(needle)}`;
  }
  for (const needle of toList(expect.promptExcludes)) {
    if (haystack.includes(needle)) return `${where}: prompt should not contain ${JSON.stringify(needle)}`;
  }
  return undefined;
}

function replyText(step: ScriptedStep): string {
  if (step.text !== undefined) return step.text;
  return step.object === undefined ? '' : JSON.stringify(step.object);
}

function usageFor(step: ScriptedStep, call: ScriptedCall, text: string): LanguageModelV3Usage {
  const unknown = { total: undefined, noCache: undefined, cacheRead: undefined, cacheWrite: undefined };
  if (step.usage === 'none') {
    return {
      inputTokens: unknown,
      outputTokens: { total: undefined, text: undefined, reasoning: undefined },
    };
  }
  const input = step.usage?.input ?? call.promptTokens;
  const output = step.usage?.output ?? estimateTokens(text);
  return {
    inputTokens: { ...unknown, total: input, noCache: input },
    outputTokens: { total: output, text: output, reasoning: undefined },
  };
}

function describeStep(step: ScriptedStep): string {
  if (step.label) return step.label;
  if (step.expect?.schemaName) return step.expect.schemaName;
  return replyText(step).slice(0, 40) || 'error step';
}

function toList(value: string | string[] | undefined): string[] {
  if (value === undefined) return [];
  return Array.isArray(value) ? value : [value];
}

function delay(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(resolve, ms);
    signal?.addEventListener(
      'abort',
      () => {
        clearTimeout(timer);
        reject(signal.reason ?? new DOMException('aborted', 'AbortError'));
      },
      { once: true },
    );
  });
}
