import { anySignal } from '../../core/link-signals.js';
import type { Page } from '../../providers/spec/page-reader.js';
import { urlKey } from '../../retrieval/normalize-url.js';
import type { RunContext } from '../run-context.js';

/**
 * Reads the best-ranked unread pages while the model is still choosing its action, so that a
 * visit finds them ready instead of waiting on the network after the LLM call. Only readers that
 * say a read is free do this; a page read ahead is counted (readCalls) only when it is visited.
 */
export function prefetchPages(context: RunContext, urls: readonly string[]): void {
  if (!context.reader.freeToPrefetch) return;
  const { prefetched, visited } = context.state;
  for (const url of urls) {
    const key = urlKey(url);
    if (!key || visited.has(key) || prefetched.has(key)) continue;
    const signal = anySignal(context.signal, context.state.prefetchController.signal);
    const read = context.reader.read(url, { signal });
    // A read nobody visits must not surface as an unhandled rejection.
    read.catch(() => undefined);
    prefetched.set(key, read);
  }
}

/** The run is over: reads ahead that no visit took are stopped. */
export function stopPrefetching(context: RunContext): void {
  context.state.prefetchController.abort();
  context.state.prefetched.clear();
}

/** The page for a visit: the read already under way for it, or a new one. */
export function readPage(context: RunContext, url: string): Promise<Page> {
  const key = urlKey(url);
  const ahead = key ? context.state.prefetched.get(key) : undefined;
  if (ahead && key) {
    context.state.prefetched.delete(key);
    return ahead;
  }
  return context.reader.read(url, { signal: context.signal });
}
