import type { EventStream } from '../../http/event-stream-response.js';
import type { ChunkFactory } from './completion-chunks.js';

/**
 * Writes one completion's SSE events in order without making the agent wait: the agent's events
 * arrive synchronously, writes are chained. Keeps track of where the answer starts in the content,
 * which the citation indices need, and of the <think> block when progress goes into the content.
 */
export function createSseChunkWriter(
  stream: EventStream,
  options: {
    chunks: ChunkFactory;
    thinkTags: boolean;
    heartbeatMs: number;
    /** Applied to every event: progress carries upstream text (errors, model reasoning). */
    redact?: (text: string) => string;
  },
) {
  const { chunks } = options;
  const redact = options.redact ?? ((text: string) => text);
  let pending = Promise.resolve();
  const enqueue = (write: () => Promise<unknown>) => {
    pending = pending.then(write).then(() => undefined);
  };
  const send = (data: unknown) => enqueue(() => stream.writeSSE({ data: redact(JSON.stringify(data)) }));
  let contentLength = 0;
  const content = (text: string) => {
    if (!text) return;
    contentLength += text.length;
    send(chunks.delta({ content: text }));
  };
  let thinkOpen = false;
  const closeThink = () => {
    if (thinkOpen) content('\n</think>\n\n');
    thinkOpen = false;
  };
  let streamedAnswer = '';
  let answerStart: number | undefined;
  // Comments keep proxies from closing a connection while a long LLM call says nothing.
  const heartbeat = setInterval(() => enqueue(() => stream.write(': keep-alive\n\n')), options.heartbeatMs);

  return {
    send,
    /** Flushed at once: the client sees the stream open before the run starts. */
    open() {
      send(chunks.delta({ role: 'assistant', content: '', refusal: null }));
      return pending;
    },
    reasoning(text: string) {
      if (!options.thinkTags) return send(chunks.delta({ reasoning_content: text }));
      if (!thinkOpen) content('<think>\n');
      thinkOpen = true;
      content(text);
    },
    answerDelta(text: string) {
      closeThink();
      answerStart ??= contentLength;
      streamedAnswer += text;
      content(text);
    },
    /** Where the answer starts in the content (now, if none of it was streamed yet). */
    answerOffset() {
      closeThink();
      return answerStart ?? contentLength;
    },
    /** The final answer text: only the part not already streamed is sent. */
    answer(text: string) {
      content(text.startsWith(streamedAnswer) ? text.slice(streamedAnswer.length) : text);
    },
    async close(options: { done: boolean }) {
      clearInterval(heartbeat);
      if (options.done) enqueue(() => stream.write('data: [DONE]\n\n'));
      await pending;
    },
  };
}
