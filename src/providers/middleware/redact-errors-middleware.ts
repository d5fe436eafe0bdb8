import { type Redactor, redactErrorMessages } from '../../core/errors/index.js';
import type { ProviderMiddleware } from '../spec/provider-middleware.js';

/**
 * Every error a provider's calls throw (or reject with) redacted: no configured secret, from any
 * service's echo, reaches the agent's diary, its events or the caller. One object for every kind
 * of provider; what it does not hook (a reader's `prepare`, which never throws) passes through.
 */
export function createRedactErrorsMiddleware(redact: Redactor): ProviderMiddleware {
  const redacted = async <T>(call: () => Promise<T>): Promise<T> => {
    try {
      return await call();
    } catch (error) {
      throw redactErrorMessages(error, redact);
    }
  };
  return {
    wrapSearch: ({ doSearch, query, options }) => redacted(() => doSearch(query, options)),
    wrapRead: ({ doRead, url, options }) => redacted(() => doRead(url, options)),
    wrapEmbed: ({ doEmbed, texts, options }) => redacted(() => doEmbed(texts, options)),
    wrapRerank: ({ doRerank, query, documents, options }) =>
      redacted(() => doRerank(query, documents, options)),
    wrapRun: ({ doRun, request }) => redacted(() => doRun(request)),
    wrapGenerateObject: ({ doGenerateObject, request }) => redacted(() => doGenerateObject(request)),
    wrapGenerateText: ({ doGenerateText, request }) => redacted(() => doGenerateText(request)),
  };
}
