import type { Secret } from '../errors/index.js';
import type { DeepSearchConfig } from './config-schema.js';
import { proxySecrets, resolveProxySettings } from './proxy-settings.js';

/**
 * Every secret a configuration holds: LLM keys (top level and per role), vendor keys, search,
 * reader, embedding and rerank keys, the server's own client keys and the proxy's password. Output
 * paths redact them all, whichever service echoed one back.
 */
export function configSecrets(config: DeepSearchConfig): Secret[] {
  const keys: Array<string | undefined> = [
    config.llm.apiKey,
    ...Object.values(config.llm.roles).map((role) => role?.apiKey),
    ...Object.values(config.keys),
    ...Object.values(config.search.apiKeys),
    config.reader.jina.apiKey,
    config.embedding.apiKey,
    config.rerank.apiKey,
    ...config.server.apiKeys,
  ];
  // A proxy's password is a person's choice, redacted whatever it looks like (keys only when they can be keys).
  const passwords = proxySecrets(resolveProxySettings(config)).map((password) => ({ password }));
  return [...new Set(keys.filter((key): key is string => Boolean(key))), ...passwords];
}
