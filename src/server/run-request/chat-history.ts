import { InputError } from '../../core/errors/index.js';
import type { ChatMessage } from './chat-request-schema.js';

export interface ChatTurn {
  question: string;
  answer: string;
}

const thinkBlock = /<think>[\s\S]*?(?:<\/think>|$)/gi;

/**
 * The question is the last user message; earlier user/assistant pairs become chat history for the
 * agent, with the <think> blocks of earlier answers removed. What follows the last user message
 * (an assistant's partial reply when a UI sends "continue") is left out: the run answers that
 * question again. System and tool messages are not questions or answers and are left out.
 */
export function splitConversation(messages: readonly ChatMessage[]): {
  question: string;
  history: ChatTurn[];
} {
  const lastUser = messages.findLastIndex((message) => message.role === 'user');
  if (lastUser < 0) {
    throw new InputError('the conversation has no user message to answer', {
      param: 'messages',
      code: 'invalid_messages',
    });
  }
  const question = messageText(messages[lastUser]!).trim();
  if (!question)
    throw new InputError('the last user message is empty', { param: 'messages', code: 'invalid_messages' });
  const history: ChatTurn[] = [];
  let pendingQuestion: string[] = [];
  for (const message of messages.slice(0, lastUser)) {
    if (message.role === 'user') pendingQuestion.push(messageText(message).trim());
    if (message.role !== 'assistant') continue;
    const answer = messageText(message).replace(thinkBlock, '').trim();
    if (answer) history.push({ question: pendingQuestion.filter(Boolean).join('\n'), answer });
    pendingQuestion = [];
  }
  return { question, history };
}

/** Text of a message: a string, or every part with a string `text` (images and audio are skipped). */
export function messageText(message: ChatMessage): string {
  const content = message.content;
  if (typeof content === 'string') return content;
  if (!content) return '';
  return content.flatMap((part) => (typeof part.text === 'string' ? [part.text] : [])).join('\n');
}
