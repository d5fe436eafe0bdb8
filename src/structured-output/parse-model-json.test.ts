import { describe, expect, it } from 'vitest';
import { extractJsonText, ModelJsonError, parseModelJson, splitReasoning } from './parse-model-json.js';

describe('parseModelJson', () => {
  it('parses clean JSON without marking it repaired', () => {
    expect(parseModelJson('{"action":"search","n":1}')).toEqual({
      value: { action: 'search', n: 1 },
      repaired: false,
      reasoning: '',
    });
  });

  it('takes the object out of a ```json fence with chatter around it', () => {
    const result = parseModelJson('Sure! Here it is:\n```json\n{"a": [1, 2]}\n```\nHope this helps.');
    expect(result.value).toEqual({ a: [1, 2] });
    expect(result.repaired).toBe(true);
  });

  it('drops <think> blocks and keeps them as reasoning', () => {
    const result = parseModelJson('<think>The user wants {braces} here.</think>\n{"answer": "Paris"}');
    expect(result.value).toEqual({ answer: 'Paris' });
    expect(result.reasoning).toBe('The user wants {braces} here.');
  });

  it('handles a bare closing </think> left by chat templates that open the tag in the prompt', () => {
    const result = parseModelJson('I should search first.\n</think>\n{"action": "search"}');
    expect(result.value).toEqual({ action: 'search' });
    expect(result.reasoning).toBe('I should search first.');
  });

  it('repairs trailing commas, single quotes, comments and Python literals', () => {
    expect(parseModelJson('{"a": [1, 2,], "b": 3,}').value).toEqual({ a: [1, 2], b: 3 });
    expect(parseModelJson("{'a': 'x', // note\n 'ok': True, 'none': None}").value).toEqual({
      a: 'x',
      ok: true,
      none: null,
    });
  });

  it('repairs a reply cut off mid-string', () => {
    const result = parseModelJson('{"action": "answer", "answer": {"text": "The capital is Par');
    expect(result.value).toEqual({ action: 'answer', answer: { text: 'The capital is Par' } });
    expect(result.repaired).toBe(true);
  });

  it('keeps braces inside strings when finding the end of the object', () => {
    expect(parseModelJson('{"code": "if (x) { y(); }"} trailing words {"second": 1}').value).toEqual({
      code: 'if (x) { y(); }',
    });
  });

  it('falls back to JSON written inside the think block', () => {
    expect(parseModelJson('<think>{"action": "reflect"}</think>').value).toEqual({ action: 'reflect' });
  });

  it('throws ModelJsonError when there is no JSON at all', () => {
    expect(() => parseModelJson('I cannot help with that.')).toThrow(ModelJsonError);
    expect(() => parseModelJson('')).toThrow(/no JSON object/);
  });
});

describe('splitReasoning and extractJsonText', () => {
  it('handles several reasoning tag names', () => {
    expect(splitReasoning('<thinking>a</thinking><reasoning>b</reasoning>{}')).toEqual({
      content: '{}',
      reasoning: 'a\nb',
    });
  });

  it('returns undefined when no bracket is present', () => {
    expect(extractJsonText('nothing here')).toBeUndefined();
  });
});
