import { describe, expect, it } from 'vitest';
import { toJsonSchema } from '../../structured-output/to-json-schema.js';
import { AgentState } from '../state/agent-state.js';
import { allowedActions, createActionSchema } from './action-registry.js';

const gate = (state: AgentState, codingEnabled = true) => ({
  state,
  step: 3,
  noDirectAnswer: false,
  maxPendingQuestions: 8,
  codingEnabled,
});

function stateWithPage(): AgentState {
  const state = new AgentState('Q');
  state.pages.add(
    {
      requestedUrl: 'https://a.example/',
      url: 'https://a.example/',
      contentType: 'text/html',
      title: 'A',
      text: 'Sweden 10.6',
      markdown: '| Country | Population |\n| --- | --- |\n| Sweden | 10.6 |',
      links: [],
    } as unknown as Parameters<AgentState['pages']['add']>[0],
    1,
  );
  return state;
}

describe('the coding action', () => {
  it('is offered once a page is read or a sub-question answered, and only when enabled', () => {
    expect(allowedActions(gate(new AgentState('Q')))).not.toContain('coding');
    expect(allowedActions(gate(stateWithPage()))).toContain('coding');
    expect(allowedActions(gate(stateWithPage(), false))).not.toContain('coding');
    const answered = new AgentState('Q');
    answered.knowledge.push({ type: 'qa', question: 'q', answer: 'a', urls: [], step: 1 });
    expect(allowedActions(gate(answered))).toContain('coding');
    const history = new AgentState('Q');
    history.knowledge.push({ type: 'chat-history', question: 'q', answer: 'a', urls: [], step: 0 });
    expect(allowedActions(gate(history))).not.toContain('coding');
  });

  it('asks for code and an optional purpose, and refuses an empty program', () => {
    const limits = { maxQueries: 3, maxUrls: 2, maxGapQuestions: 5, maxReferences: 10 };
    const schema = createActionSchema(['coding', 'answer'], limits);
    const json = toJsonSchema(schema) as unknown as {
      properties: { step: { anyOf: Array<{ properties: Record<string, { required?: string[] }> }> } };
    };
    const coding = json.properties.step.anyOf[0]!.properties;
    expect(Object.keys(coding)).toEqual(['action', 'coding']);
    expect(coding.coding!.required).toEqual(['code']);
    const step = (code: string) => ({ think: 't', step: { action: 'coding', coding: { code } } });
    expect(schema.safeParse(step('return 1')).success).toBe(true);
    expect(schema.safeParse(step('')).success).toBe(false);
  });
});
