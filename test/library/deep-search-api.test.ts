import { describe, expect, it } from 'vitest';
import { deepSearch } from '../../src/api/deep-search.js';
import { AbortedError, ConfigError, InputError } from '../../src/core/errors/index.js';
import type { AgentEvent } from '../../src/events/agent-events.js';
import { createRuntime } from '../../src/runtime/create-runtime.js';
import { createFakeReader } from '../../src/testing/fake-reader.js';
import { createFakeSearch } from '../../src/testing/fake-search.js';
import { createScriptedLlm, type ScriptedStep } from '../../src/testing/scripted-llm.js';
import { scriptedStep } from '../../src/testing/scripted-steps.js';
import { createTestConfig } from '../../src/testing/test-config.js';

const page = 'The Eiffel Tower is 330 metres tall since the 2022 antenna was added.';
const url = 'https://example.org/eiffel';

function runtimeWith(steps: ScriptedStep[]) {
  const llm = createScriptedLlm(steps);
  const runtime = createRuntime({
    config: createTestConfig(),
    search: createFakeSearch({ 'Eiffel Tower height': [{ url, title: 'Eiffel', snippet: 'height' }] }),
    reader: createFakeReader({ [url]: page }),
    createModel: () => llm,
  });
  return { llm, runtime };
}

const answeredSteps = () => [
  scriptedStep.search(['Eiffel Tower height']),
  scriptedStep.visit([url]),
  scriptedStep.answer('It is 330 metres tall[^1].', [{ url, quote: 'The Eiffel Tower is 330 metres tall' }]),
  scriptedStep.criteria(),
  scriptedStep.evaluation('definitive', true),
];

describe('deepSearch(): the library API', () => {
  it('yields every event in order through run.events, then resolves run.result with the verified answer', async () => {
    const { llm, runtime } = runtimeWith(answeredSteps());
    const observed: string[] = [];
    const run = deepSearch('How tall is the Eiffel Tower?', {
      runtime,
      observers: [(event) => observed.push(event.type)],
    });
    const events: AgentEvent[] = [];
    for await (const event of run.events) events.push(event);
    const result = await run.result;
    llm.assertConsumed();
    expect(events[0]!.type).toBe('run-start');
    expect(events.at(-1)!.type).toBe('run-end');
    expect(events.map((event) => event.seq)).toEqual(events.map((_, index) => index + 1));
    expect(events.every((event) => event.runId === result.runId)).toBe(true);
    expect(events.map((event) => event.type)).toEqual(observed);
    expect(events.filter((event) => event.type === 'read-end')).toMatchObject([{ url, ok: true }]);
    expect(result.references).toMatchObject([{ url, quote: 'The Eiffel Tower is 330 metres tall' }]);
    expect(result.confidence).toBe('high');
  });

  it('applies per-run overrides and refuses a bad one with a ConfigError before any LLM call', async () => {
    const { llm, runtime } = runtimeWith([]);
    const run = deepSearch('How tall?', { runtime, overrides: { budget: { maxSteps: 0 } } });
    await expect(run.result).rejects.toBeInstanceOf(ConfigError);
    await expect(run.result).rejects.toThrow(/budget\.maxSteps/);
    await expect(run.events.next()).rejects.toBeInstanceOf(ConfigError);
    llm.assertConsumed();
  });

  it('cancel() stops a run waiting on the LLM: result rejects with AbortedError, events end with it', async () => {
    const { runtime } = runtimeWith([{ ...scriptedStep.search(['Eiffel Tower height']), delayMs: 60_000 }]);
    const run = deepSearch('How tall is the Eiffel Tower?', { runtime });
    const seen: string[] = [];
    const reading = (async () => {
      for await (const event of run.events) {
        seen.push(event.type);
        if (event.type === 'step-start') run.cancel();
      }
    })();
    await expect(run.result).rejects.toBeInstanceOf(AbortedError);
    await expect(reading).rejects.toBeInstanceOf(AbortedError);
    expect(seen).toContain('step-start');
  });

  it('takes a caller signal, a config instead of a runtime, and says what is missing without either', async () => {
    const controller = new AbortController();
    controller.abort();
    const runtimeOptions = {
      search: createFakeSearch({}),
      reader: createFakeReader({}),
      createModel: () => createScriptedLlm([]),
    };
    const run = deepSearch('How tall?', {
      config: createTestConfig(),
      runtimeOptions,
      signal: controller.signal,
    });
    await expect(run.result).rejects.toBeInstanceOf(AbortedError);
    const missing = deepSearch('How tall?', {} as never);
    await expect(missing.result).rejects.toBeInstanceOf(InputError);
    await expect(missing.result).rejects.toThrow('pass a runtime (createRuntime) or a config (loadConfig)');
    const quiet = deepSearch('How tall?', {
      config: createTestConfig(),
      runtimeOptions,
      bufferEvents: false,
      signal: controller.signal,
    });
    expect(() => quiet.events).toThrow(/bufferEvents: false/);
    await expect(quiet.result).rejects.toBeInstanceOf(AbortedError);
  });

  it('stops keeping events when the reader breaks out of the loop; the run goes on to its result', async () => {
    const { runtime } = runtimeWith(answeredSteps());
    const run = deepSearch('How tall is the Eiffel Tower?', { runtime });
    for await (const event of run.events) if (event.type === 'run-start') break;
    expect((await run.events.next()).done).toBe(true);
    expect((await run.result).confidence).toBe('high');
  });
});
