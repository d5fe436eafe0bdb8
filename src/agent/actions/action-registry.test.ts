import { describe, expect, it } from 'vitest';
import { z } from 'zod';
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

  it('derives the step schema from the allowed actions only', () => {
    const schema = createActionSchema(['search', 'answer'], limits);
    const json = z.toJSONSchema(schema, { io: 'input' }) as {
      properties: Record<string, { enum?: string[] }>;
    };
    expect(Object.keys(json.properties).sort()).toEqual(['action', 'answer', 'search', 'think']);
    expect(json.properties.action?.enum).toEqual(['search', 'answer']);
    expect(
      schema.safeParse({ think: 't', action: 'visit', visit: { targets: ['https://a.example/'] } }).success,
    ).toBe(false);
    expect(schema.safeParse({ think: 't', action: 'search', search: { queries: ['a'] } }).success).toBe(true);
    // The chosen action's payload must be filled, and within the limits.
    expect(schema.safeParse({ think: 't', action: 'search' }).success).toBe(false);
    expect(
      schema.safeParse({ think: 't', action: 'search', search: { queries: ['a', 'b', 'c', 'd'] } }).success,
    ).toBe(false);
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
