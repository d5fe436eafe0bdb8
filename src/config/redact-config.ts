import type { DeepSearchConfig } from './config-schema.js';
import { maskProxyUrl } from './proxy-settings.js';

const secretKeys = new Set(['apiKey', 'openai', 'anthropic', 'google', 'jina', 'cohere', 'apiKeys']);

/** A copy safe to print in --debug output: every secret replaced by a marker. */
export function redactConfig(config: DeepSearchConfig): unknown {
  return redact(config, []);
}

function redact(value: unknown, path: string[]): unknown {
  if (Array.isArray(value)) return value.map((item) => redact(item, path));
  if (typeof value !== 'object' || value === null) return value;
  const out: Record<string, unknown> = {};
  for (const [key, child] of Object.entries(value)) {
    const isSecret = secretKeys.has(key) && (key === 'apiKey' || key === 'apiKeys' || path[0] === 'keys');
    // Proxy, Redis and Postgres URLs stay readable (which server is used); their credentials do not.
    if ((path[0] === 'network' || path[0] === 'scale') && typeof child === 'string' && child !== 'none')
      out[key] = maskProxyUrl(child);
    else out[key] = isSecret && child !== undefined ? '[redacted]' : redact(child, [...path, key]);
  }
  return out;
}
