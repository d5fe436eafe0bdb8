import { describe, expect, it } from 'vitest';
import { StructuredOutputError } from '../../core/errors/index.js';
import { createLlmClient } from '../../providers/llm/create-llm-client.js';
import { createScriptedLlm } from '../../testing/scripted-llm.js';
import { createTestConfig } from '../../testing/test-config.js';
import { actionNames, createActionSchema } from './action-registry.js';
import { liftStepReply } from './lift-step-reply.js';

const limits = { maxQueries: 3, maxUrls: 2, maxGapQuestions: 5, maxReferences: 10 };
const search = { think: 't', step: { action: 'search', search: { queries: ['a'] } } };

describe('liftStepReply', () => {
  it('leaves a reply in the nested shape as it is (no repair)', () => {
    expect(liftStepReply(search)).toBe(search);
    const unknown = { think: 't', step: { action: 'fly' } };
    expect(liftStepReply(unknown)).toBe(unknown);
  });

  it('nests the flat shape, and a payload written next to "action"', () => {
    expect(liftStepReply({ think: 't', action: 'search', search: { queries: ['a'] } })).toEqual(search);
    expect(liftStepReply({ think: 't', action: 'search', queries: ['a'] })).toEqual(search);
    expect(liftStepReply({ think: 't', step: { action: 'search', queries: ['a'] } })).toEqual(search);
    expect(liftStepReply({ think: 't', step: { action: 'search' }, search: { queries: ['a'] } })).toEqual(
      search,
    );
  });

  it('finds the action from its object alone, or a step named by a string, and a think one level down', () => {
    expect(liftStepReply({ think: 't', search: { queries: ['a'] } })).toEqual(search);
    expect(liftStepReply({ think: 't', step: 'search', search: { queries: ['a'] } })).toEqual(search);
    expect(liftStepReply({ step: { think: 't', action: 'search', search: { queries: ['a'] } } })).toEqual(
      search,
    );
    expect(liftStepReply({ response: { think: 't', action: 'search', search: { queries: ['a'] } } })).toEqual(
      search,
    );
    expect(liftStepReply([{ think: 't', action: 'search', search: { queries: ['a'] } }])).toEqual(search);
    expect(liftStepReply([search])).toBe(search);
  });

  it('nests an unknown action too, so validation names the allowed ones', () => {
    expect(liftStepReply({ think: 't', action: 'fly', to: 'Paris' })).toEqual({
      think: 't',
      step: { action: 'fly', to: 'Paris' },
    });
    expect(liftStepReply('not an object')).toBe('not an object');
  });
});

describe('agent steps through the structured-output client', () => {
  function run(reply: unknown, allowed = [...actionNames]) {
    const model = createScriptedLlm([{ object: reply }, { object: reply }]);
    const client = createLlmClient({ config: createTestConfig(), createModel: () => model });
    return client.generateObject({
      role: 'agent',
      system: 'Act.',
      prompt: 'Q',
      schema: createActionSchema(allowed, limits),
      schemaName: 'agent_action',
      repair: liftStepReply,
      keyAliases: { query: 'queries', urls: 'targets', answer: 'text', exactQuote: 'quote' },
    });
  }

  it('takes the nested shape as it is', async () => {
    const result = await run(search);
    expect(result.object).toEqual({ think: 't', action: 'search', search: { queries: ['a'] } });
    expect(result.repairs).toBe(0);
  });

  it('takes the flat shape and small-model slips as repairs, never as parse failures', async () => {
    const cases: Array<[unknown, unknown]> = [
      [{ think: 't', action: 'search', search: { queries: ['a'] } }, { queries: ['a'] }],
      // The payload next to "action", one query as a string under a synonym, no think.
      [{ action: 'Search', query: 'a' }, { queries: ['a'] }],
      [
        { think: 't', step: { action: 'search', search: { queries: ['a', 'b', 'c', 'd'] } } },
        { queries: ['a', 'b', 'c'] },
      ],
      [
        { think: 't', step: { action: 'visit', visit: { urls: ['https://a.example/'] } } },
        { targets: ['https://a.example/'] },
      ],
      [
        { think: 't', action: 'answer', answer: 'Paris.' },
        { text: 'Paris.', references: [] },
      ],
      // A bare list or string for an object holding one required list.
      [{ think: 't', step: { action: 'search', search: ['a', 'b'] } }, { queries: ['a', 'b'] }],
      [{ think: 't', action: 'reflect', reflect: 'Who won?' }, { questions: ['Who won?'] }],
      [
        {
          think: 't',
          step: {
            action: 'answer',
            answer: { answer: 'Paris.', references: [{ source: '2', exactQuote: 'q' }] },
          },
        },
        { text: 'Paris.', references: [{ source: '2', quote: 'q' }] },
      ],
    ];
    for (const [reply, payload] of cases) {
      const result = await run(reply);
      const step = result.object as unknown as Record<string, unknown>;
      expect(step[step.action as string], JSON.stringify(reply)).toEqual(payload);
      expect(result.repairs, JSON.stringify(reply)).toBeGreaterThan(0);
      expect(result.parseFailures).toBe(0);
    }
  });

  it('refuses a step without its payload, and an action not allowed, naming what is wrong', async () => {
    const missing = await run({ think: 't', step: { action: 'search' } }).catch((error: unknown) => error);
    expect(missing).toBeInstanceOf(StructuredOutputError);
    expect((missing as StructuredOutputError).validationMessage).toContain('`step.search` is missing');
    const notAllowed = await run({ think: 't', action: 'visit', visit: { targets: ['1'] } }, [
      'search',
      'answer',
    ]).catch((error: unknown) => error);
    expect((notAllowed as StructuredOutputError).validationMessage).toContain(
      '`step.action` must be one of "search", "answer"',
    );
  });
});
