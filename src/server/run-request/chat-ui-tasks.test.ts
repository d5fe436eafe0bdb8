import { describe, expect, it } from 'vitest';
import { libreChatTitlePrompt, openWebUiPrompts } from '../../../test/helpers/chat-ui-prompts.js';
import { recognizeChatUiTask } from './chat-ui-tasks.js';

const user = (content: string) => [{ role: 'user' as const, content }];

describe('recognizeChatUiTask', () => {
  it("recognises each of Open WebUI's task prompts and tells which task it is", () => {
    expect(recognizeChatUiTask(user(openWebUiPrompts.title))).toEqual({ ui: 'open-webui', kind: 'title' });
    expect(recognizeChatUiTask(user(openWebUiPrompts.tags))).toEqual({ ui: 'open-webui', kind: 'tags' });
    expect(recognizeChatUiTask(user(openWebUiPrompts.followUps))?.kind).toBe('follow-ups');
    expect(recognizeChatUiTask(user(openWebUiPrompts.autocomplete))?.kind).toBe('autocomplete');
    expect(recognizeChatUiTask(user(openWebUiPrompts.queries))?.kind).toBe('queries');
  });

  it("recognises LibreChat's title prompts (completion and structured methods)", () => {
    expect(recognizeChatUiTask(user(libreChatTitlePrompt))).toEqual({ ui: 'librechat', kind: 'title' });
    const structured =
      'Analyze this conversation and provide:\n1. The detected language of the conversation\n2. A concise title in the detected language (5 words or less, no punctuation or quotation)\n\nUser: hi';
    expect(recognizeChatUiTask(user(structured))?.ui).toBe('librechat');
  });

  it('leaves real questions alone, even ones about titles or written with a "### Task:" heading', () => {
    expect(recognizeChatUiTask(user('What is a good title for a book about Parasite?'))).toBeUndefined();
    expect(recognizeChatUiTask(user('### Task:\nFind who directed Green Book.'))).toBeUndefined();
    expect(
      recognizeChatUiTask([
        { role: 'user', content: openWebUiPrompts.title },
        { role: 'assistant', content: '{"title": "Green Book"}' },
        { role: 'user', content: 'And who wrote it?' },
      ]),
    ).toBeUndefined();
  });
});
