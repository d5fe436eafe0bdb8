import { describe, expect, it } from 'vitest';
import { InputError } from '../../core/errors/index.js';
import { splitConversation } from './chat-history.js';
import type { ChatMessage } from './chat-request-schema.js';

describe('splitConversation', () => {
  it('pairs earlier user and assistant turns, strips <think> blocks and skips system and tool messages', () => {
    const messages: ChatMessage[] = [
      { role: 'system', content: 'Be brief.' },
      { role: 'user', content: 'Who won Best Picture in 2019?' },
      { role: 'assistant', content: '<think>Searching the 91st Academy Awards…</think>\n\nGreen Book[^1].' },
      { role: 'tool', content: 'ignored' },
      { role: 'user', content: [{ type: 'text', text: 'Who directed it?' }, { type: 'image_url' }] },
      { role: 'assistant', content: '<think>unterminated reasoning' },
      { role: 'user', content: '  And who wrote it?  ' },
    ];
    expect(splitConversation(messages)).toEqual({
      question: 'And who wrote it?',
      history: [{ question: 'Who won Best Picture in 2019?', answer: 'Green Book[^1].' }],
    });
  });

  it('refuses a conversation without a user message, or whose last user message is empty', () => {
    expect(() => splitConversation([{ role: 'system', content: 'Be brief.' }])).toThrow(InputError);
    expect(() => splitConversation([{ role: 'user', content: '   ' }])).toThrow(
      'the last user message is empty',
    );
  });

  it('a trailing assistant message ("continue") answers the last user question again', () => {
    expect(
      splitConversation([
        { role: 'user', content: 'Who wrote Dune?' },
        { role: 'assistant', content: 'Frank Herbert.' },
        { role: 'user', content: 'When was it published?' },
        { role: 'assistant', content: 'It was published in' },
      ]),
    ).toEqual({
      question: 'When was it published?',
      history: [{ question: 'Who wrote Dune?', answer: 'Frank Herbert.' }],
    });
  });

  it('reads every content part with a string text, input_text included', () => {
    expect(
      splitConversation([
        {
          role: 'user',
          content: [
            { type: 'input_text', text: 'Who wrote' },
            { type: 'image_url', image_url: { url: 'https://example.org/a.png' } },
            { type: 'text', text: 'Dune?' },
          ],
        },
      ]).question,
    ).toBe('Who wrote\nDune?');
  });
});
