import type { DeepSearchConfig } from '../config/config-schema.js';
import type { ProxySettings } from '../config/proxy-settings.js';
import { createLexicalEmbedding } from '../providers/embedding/lexical-embedding.js';
import { createLexicalReranker } from '../providers/rerank/lexical-reranker.js';
import type { RetrievalProviders } from './create-retrieval-providers.js';

/**
 * createRetrievalProviders for a one-shot command (`kb`): the service clients, and the outbound
 * fetch they call through (network guard, proxy routes), are loaded only when a service is
 * configured. With the built-in lexical fallbacks, `kb search` starts without them.
 */
export async function loadRetrievalProviders(options: {
  config: Pick<DeepSearchConfig, 'embedding' | 'rerank' | 'keys'>;
  proxy: ProxySettings;
}): Promise<RetrievalProviders> {
  const { config, proxy } = options;
  if (config.embedding.provider === 'builtin' && config.rerank.provider === 'builtin') {
    return { embedding: createLexicalEmbedding(), reranker: createLexicalReranker() };
  }
  const [{ createRetrievalProviders }, { createOutboundFetch }] = await Promise.all([
    import('./create-retrieval-providers.js'),
    import('../platform/http/outbound-fetch.js'),
  ]);
  return createRetrievalProviders({ config, fetch: createOutboundFetch({ proxy }) });
}
