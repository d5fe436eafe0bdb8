import { InputError } from '../errors/index.js';
import type { ChatMessage } from './chat-request-schema.js';

export interface ChatTurn {
  question: string;
  answer: string;
}

const thinkBlock = /<think>[\s\S]*?(?:<\/think>|$)/gi;

/**
 * The question is the last message, which must come from the user; earlier user/assistant pairs
 * become chat history for the agent, with the <think> blocks of earlier answers removed. System
 * and tool messages are not questions or answers and are left out.
 */
export function splitConversation(messages: readonly ChatMessage[]): {
  question: string;
  history: ChatTurn[];
} {
  const last = messages.at(-1);
  if (last?.role !== 'user') {
    throw new InputError('the last message must come from the user', {
      param: 'messages',
      code: 'invalid_messages',
    });
  }
  const question = messageText(last).trim();
  if (!question)
    throw new InputError('the last user message is empty', { param: 'messages', code: 'invalid_messages' });
  const history: ChatTurn[] = [];
  let pendingQuestion: string[] = [];
  for (const message of messages.slice(0, -1)) {
    if (message.role === 'user') pendingQuestion.push(messageText(message).trim());
    if (message.role !== 'assistant') continue;
    const answer = messageText(message).replace(thinkBlock, '').trim();
    if (answer) history.push({ question: pendingQuestion.filter(Boolean).join('\n'), answer });
    pendingQuestion = [];
  }
  return { question, history };
}

/** Text of a message: a string, or the text parts of a list (images and audio are skipped). */
export function messageText(message: ChatMessage): string {
  const content = message.content;
  if (typeof content === 'string') return content;
  if (!content) return '';
  return content
    .filter((part) => part.type === 'text' && typeof part.text === 'string')
    .map((part) => part.text)
    .join('\n');
}
