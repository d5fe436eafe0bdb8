import { describe, expect, it } from 'vitest';
import { allowedActions } from './allowed-actions.js';
import { AgentState } from './state/agent-state.js';

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
