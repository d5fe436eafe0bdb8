import { Ajv } from 'ajv';
import { describe, expect, it } from 'vitest';
import { toJsonSchema } from '../../structured-output/to-json-schema.js';
import { AgentState } from '../state/agent-state.js';
import {
  actionDefinition,
  actionNames,
  actionRegistry,
  allowedActions,
  createActionSchema,
  renderActions,
} from './action-registry.js';

const input = (state: AgentState, overrides: Partial<Parameters<typeof allowedActions>[0]> = {}) => ({
  state,
  step: 1,
  noDirectAnswer: false,
  maxPendingQuestions: 8,
  codingEnabled: true,
  ...overrides,
});

describe('allowedActions', () => {
  it('offers no visit while no URL is known', () => {
    expect(allowedActions(input(new AgentState('Q')))).toEqual(['search', 'reflect', 'answer']);
  });

  it('offers visit once an unread URL is known, and not when all are read', () => {
    const state = new AgentState('Q');
    state.urls.add({ url: 'https://a.example/', source: 'search:q', step: 1 });
    expect(allowedActions(input(state))).toContain('visit');
    state.visited.add('a.example');
    expect(allowedActions(input(state))).not.toContain('visit');
  });

  it('switches off for one step whatever was disabled (answer after a rejection, fruitless search)', () => {
    const state = new AgentState('Q');
    state.disabled = new Set(['answer', 'search']);
    expect(allowedActions(input(state))).toEqual(['reflect']);
  });

  it('blocks a direct answer when noDirectAnswer is set and nothing is known', () => {
    expect(allowedActions(input(new AgentState('Q'), { noDirectAnswer: true }))).not.toContain('answer');
  });

  it('stops offering reflect when the queue is long', () => {
    const state = new AgentState('Q');
    state.gaps.add(['a', 'b', 'c']);
    expect(allowedActions(input(state, { maxPendingQuestions: 3 }))).not.toContain('reflect');
  });

  it('always leaves answer as a last resort', () => {
    const state = new AgentState('Q');
    state.disabled = new Set(['answer', 'search', 'reflect']);
    expect(allowedActions(input(state))).toEqual(['answer']);
  });
});

describe('the action registry', () => {
  const limits = { maxQueries: 3, maxUrls: 2, maxGapQuestions: 5, maxReferences: 10 };

  it('lists every registered action once, in prompt order', () => {
    expect(actionNames).toEqual(actionRegistry.map((action) => action.name));
    expect(new Set(actionNames).size).toBe(actionNames.length);
  });

  it('derives the step schema from the allowed actions only, one complete object per action', () => {
    const schema = createActionSchema(['search', 'answer'], limits);
    const json = toJsonSchema(schema) as {
      properties: Record<string, unknown>;
      required: string[];
      oneOf?: unknown;
    };
    expect(Object.keys(json.properties)).toEqual(['think', 'step']);
    expect(json.required).toEqual(['think', 'step']);
    const branches = (json.properties.step as { anyOf: Array<Record<string, unknown>>; oneOf?: unknown })
      .anyOf;
    expect(JSON.stringify(json)).not.toContain('oneOf');
    expect(branches.map((branch) => branch.properties)).toMatchObject([
      { action: { const: 'search' }, search: { required: ['queries'] } },
      { action: { const: 'answer' }, answer: { required: ['text', 'references'] } },
    ]);
    expect(branches.map((branch) => branch.required)).toEqual([
      ['action', 'search'],
      ['action', 'answer'],
    ]);
    const step = (value: unknown) => schema.safeParse({ think: 't', step: value });
    expect(step({ action: 'visit', visit: { targets: ['https://a.example/'] } }).success).toBe(false);
    // Validation gives the flat step the loop uses.
    expect(step({ action: 'search', search: { queries: ['a'] } }).data).toEqual({
      think: 't',
      action: 'search',
      search: { queries: ['a'] },
    });
    // The chosen action's payload must be filled, and within the limits.
    expect(step({ action: 'search' }).success).toBe(false);
    expect(step({ action: 'search', search: { queries: ['a', 'b', 'c', 'd'] } }).success).toBe(false);
  });

  it('is a JSON schema under which a reply cannot end right after "action"', () => {
    const validate = new Ajv({ strict: false }).compile(
      toJsonSchema(createActionSchema([...actionNames], limits)),
    );
    expect(validate({ think: 't', step: { action: 'search' } })).toBe(false);
    expect(validate({ think: 't', step: { action: 'search', visit: { targets: ['1'] } } })).toBe(false);
    // The flat shape of old: not what the schema asks (the repair hook lifts it, see liftStepReply).
    expect(validate({ think: 't', action: 'search', search: { queries: ['a'] } })).toBe(false);
    expect(validate({ think: 't', step: { action: 'search', search: { queries: ['a'] } } })).toBe(true);
    for (const name of actionNames) {
      const { example } = actionDefinition(name).guide(limits);
      expect(validate({ think: 't', step: { action: name, [name]: example } }), name).toBe(true);
      expect(validate({ think: 't', step: { action: name } }), name).toBe(false);
    }
  });

  it("derives the prompt's action list from the allowed actions only, with the limits named", () => {
    const text = renderActions(['search', 'reflect'], { limits, state: new AgentState('Q') });
    expect(text).toContain('<action-search>');
    expect(text).toContain('Write up to 3 short keyword queries');
    expect(text).toContain('<action-reflect>');
    expect(text).not.toContain('<action-visit>');
    expect(text).not.toContain('<action-answer>');
  });

  it("shows each allowed action's fields and an example reply that the step schema accepts", () => {
    const allowed = [...actionNames];
    const text = renderActions(allowed, { limits, state: new AgentState('Q') });
    const schema = createActionSchema(allowed, limits);
    for (const name of allowed) {
      expect(text).toContain(`To ${name}, reply with`);
      const example = new RegExp(`Example: (\\{"think".*"action":"${name}".*\\})$`, 'm').exec(text);
      expect(example, name).not.toBeNull();
      expect(schema.safeParse(JSON.parse(example![1]!)).success, name).toBe(true);
    }
  });

  it('gives each action its own gate and definition', () => {
    for (const name of actionNames) {
      const definition = actionDefinition(name);
      expect(definition.name).toBe(name);
      expect(definition.prompt({ limits, state: new AgentState('Q') })).toContain(`<action-${name}>`);
    }
  });
});
