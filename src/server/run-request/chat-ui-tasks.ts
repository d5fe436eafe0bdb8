import { messageText } from './chat-history.js';
import type { ChatMessage } from './chat-request-schema.js';

/** A chat UI's background request: it wants a title or tags for the chat, not a researched answer. */
export interface ChatUiTask {
  ui: 'open-webui' | 'librechat';
  kind: 'title' | 'tags' | 'follow-ups' | 'autocomplete' | 'queries' | 'image-prompt' | 'other';
}

// Open WebUI's task prompts (backend/open_webui/config.py, DEFAULT_*_PROMPT_TEMPLATE) all start with
// "### Task:" and carry the conversation in <chat_history>; an admin's own template usually keeps
// that frame, so the kind is read from the task line, not from the whole text.
const openWebUiKinds: Array<[RegExp, ChatUiTask['kind']]> = [
  [/\btitle\b/i, 'title'],
  [/\btags?\b/i, 'tags'],
  [/follow-?up/i, 'follow-ups'],
  [/autocompletion|continue the text/i, 'autocomplete'],
  [/search queries/i, 'queries'],
  [/image generation/i, 'image-prompt'],
];

// LibreChat's title prompts: @librechat/agents title.ts (structured and completion methods) and the
// assistants endpoint's title scaffold.
const libreChatTitles = [
  /^Analyze this conversation and provide:\s*\n\s*1\. The detected language of the conversation/i,
  /^Provide a concise,? 5-word-or-less title for the conversation/i,
  /^Please generate a concise title \(max \d+ characters\) for a conversation that starts with/i,
];

/**
 * Recognises the background tasks chat UIs send to the chat model itself, so they get one plain
 * LLM call instead of a deep search (whose answer would otherwise become the chat's title).
 */
export function recognizeChatUiTask(messages: readonly ChatMessage[]): ChatUiTask | undefined {
  const last = messages.findLast((message) => message.role === 'user' || message.role === 'system');
  const text = last ? messageText(last).trimStart() : '';
  if (/^###\s*Task:/i.test(text) && /<chat_history>|<text>|### Chat History/i.test(text)) {
    const taskLines = text.split(/\n#{2,4}\s/)[0] ?? text;
    const kind = openWebUiKinds.find(([pattern]) => pattern.test(taskLines))?.[1] ?? 'other';
    return { ui: 'open-webui', kind };
  }
  if (libreChatTitles.some((pattern) => pattern.test(text))) return { ui: 'librechat', kind: 'title' };
  return undefined;
}
