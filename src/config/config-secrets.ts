import type { Secret } from '../core/errors/index.js';
import type { DeepSearchConfig } from './config-schema.js';
import { proxySecrets, resolveProxySettings } from './proxy-settings.js';

/**
 * Every secret a configuration holds: LLM keys (top level and per role), vendor keys, search,
 * reader, embedding and rerank keys, the server's own client keys, the proxy's password and the
 * passwords in the queue mode's Redis and Postgres URLs. Output
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
  // A proxy's (or a Redis or Postgres URL's) password is a person's choice, redacted whatever it looks like (keys only when they can be keys).
  const passwords = [
    ...proxySecrets(resolveProxySettings(config)),
    ...urlPasswords(config.scale.redisUrl),
    ...urlPasswords(config.scale.databaseUrl),
  ].map((password) => ({ password }));
  return [...new Set(keys.filter((key): key is string => Boolean(key))), ...passwords];
}

/** A URL's password as written and decoded (a driver's error may show either). */
function urlPasswords(url: string | undefined): string[] {
  if (!url) return [];
  try {
    const { password } = new URL(url);
    return password ? [password, decodeURIComponent(password)] : [];
  } catch {
    return [];
  }
}
