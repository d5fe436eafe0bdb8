import type { MessagePort } from 'node:worker_threads';
import type { ExtractedContent } from '../../extraction/fetched-to-page.js';
import type { ContentExtractor, ContentInput } from '../../extraction/worker/content-extractor.js';
import { fromThreadError, type ThreadError, toThreadError } from './thread-errors.js';

/** From a run thread to the thread that holds the extraction pool. */
type ExtractionRequest =
  | { type: 'extract'; id: number; input: ContentInput }
  | { type: 'cancel'; id: number }
  | { type: 'prepare'; processes?: number };

/** The answer to an `extract`. */
type ExtractionReply =
  | { type: 'extracted'; id: number; content: ExtractedContent }
  | { type: 'failed'; id: number; error: ThreadError };

/**
 * Serves a run thread's extractions on `port` with the server's extractor (the process's one
 * extraction pool): the run threads and the server's own reads share its processes, its limits
 * and its queue, as runs in the server's thread did, instead of each thread starting a pool.
 */
export function serveExtractions(port: MessagePort, extractor: ContentExtractor): void {
  const going = new Map<number, AbortController>();
  port.on('message', (message: ExtractionRequest) => {
    if (message.type === 'cancel') return going.get(message.id)?.abort();
    if (message.type === 'prepare') return void extractor.prepare?.({ processes: message.processes });
    const { id } = message;
    const controller = new AbortController();
    going.set(id, controller);
    extractor
      .extract(message.input, { signal: controller.signal })
      .then(
        (content) => port.postMessage({ type: 'extracted', id, content } satisfies ExtractionReply),
        (error: unknown) =>
          port.postMessage({ type: 'failed', id, error: toThreadError(error) } satisfies ExtractionReply),
      )
      .finally(() => going.delete(id));
  });
}

/** A run thread's extractor: each page goes to the server's extraction pool through `port`. */
export function remoteExtractor(port: MessagePort): ContentExtractor {
  let nextId = 1;
  const waiting = new Map<
    number,
    { resolve(content: ExtractedContent): void; reject(error: unknown): void }
  >();
  port.on('message', (reply: ExtractionReply) => {
    const pending = waiting.get(reply.id);
    if (!pending) return;
    waiting.delete(reply.id);
    if (reply.type === 'extracted') pending.resolve(reply.content);
    else pending.reject(fromThreadError(reply.error));
  });
  // Only while a page is being parsed does the port keep the thread up.
  port.unref();
  const post = (message: ExtractionRequest) => port.postMessage(message);
  return {
    extract(input, options = {}) {
      const { signal } = options;
      const id = nextId++;
      return new Promise<ExtractedContent>((resolve, reject) => {
        const cancel = () => post({ type: 'cancel', id });
        const settle = () => {
          signal?.removeEventListener('abort', cancel);
          if (waiting.size === 0) port.unref();
        };
        waiting.set(id, {
          resolve: (content) => {
            settle();
            resolve(content);
          },
          reject: (error) => {
            settle();
            reject(error);
          },
        });
        port.ref();
        post({ type: 'extract', id, input });
        signal?.addEventListener('abort', cancel, { once: true });
      });
    },
    async prepare(prepareOptions) {
      post({
        type: 'prepare',
        ...(prepareOptions?.processes ? { processes: prepareOptions.processes } : {}),
      });
    },
  };
}
