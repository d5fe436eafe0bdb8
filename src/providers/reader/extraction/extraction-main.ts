import { isProviderError } from '../../../errors/index.js';
import { displayUrl } from '../../http/describe-network-error.js';
import { fetchedToPage } from '../builtin/fetched-to-page.js';
import {
  type ExtractionReply,
  type ExtractionRequest,
  extractionErrorPrefix,
} from './extraction-protocol.js';

/**
 * An extraction process: a child of a process that reads pages (started by extraction-pool.ts),
 * parsing one page or document at a time, so a hostile one blocks this process and never its
 * parent's event loop. Its parent kills it past the job's deadline or memory cap. It has an empty
 * environment and ends when its parent goes away (its IPC channel closes).
 */
process.on('disconnect', () => process.exit(0));
process.on('message', (message: ExtractionRequest) => {
  handle(message).then(reply, (error: unknown) => {
    process.stderr.write(`${extractionErrorPrefix}${(error as Error)?.message ?? String(error)}\n`);
    process.exit(1);
  });
});

function reply(message: ExtractionReply): void {
  process.send?.(message);
}

async function handle(message: ExtractionRequest): Promise<ExtractionReply> {
  if (message.type === 'start') return { type: 'started', id: message.id };
  try {
    const content = await fetchedToPage({ ...message.input, limits: message.limits });
    return { type: 'extracted', id: message.id, content };
  } catch (error) {
    // A parser's own failure (a bug, a stack overflow) is a page that cannot be read, like any other.
    const { message: text, code } = isProviderError(error)
      ? error
      : {
          message: `${displayUrl(message.input.fetched.url)} could not be read: ${(error as Error)?.message ?? String(error)}`,
          code: 'page_unreadable',
        };
    return {
      type: 'failed',
      id: message.id,
      error: { message: text, code, providerId: message.input.providerId },
    };
  }
}
