import type { ProviderError } from '../../core/errors/index.js';
import { describeNetworkCode } from '../../platform/http/describe-network-error.js';
import { searchProviderIds } from '../../providers/search/search-registry.js';

/** What each kind of provider failure means to the person who started the run. */
const outcomes: Record<string, string> = {
  provider_unreachable: 'could not be reached',
  provider_timeout: 'did not answer in time',
  provider_bad_response: 'sent an answer that could not be read',
  provider_rate_limited: 'refused the request: rate limit reached',
  provider_http_error: 'answered with an error',
  provider_auth: 'refused its credentials',
  llm_model_not_found: 'does not know the configured model',
  context_length_exceeded: "found the prompt too long for the model's window",
  llm_structured_output_unsupported: 'does not accept JSON-schema output',
};

/**
 * A provider's failure said as the CLI says it, which service and what went wrong, but without
 * what only the server's operator should see: no URL, setting name or upstream text. Network
 * failures keep their system code ("connection refused (ECONNREFUSED)"), which names no address.
 */
export function describeProviderFailure(error: ProviderError): string {
  const outcome = outcomes[error.code] ?? `failed (${error.code})`;
  const network = error.code === 'provider_unreachable' ? (describeNetworkCode(error.cause) ?? '') : '';
  return `${serviceName(error.providerId)} ${outcome}${network ? `: ${network}` : ''}`;
}

function serviceName(providerId: string): string {
  if (providerId.startsWith('llm:')) return `the LLM server (${providerId.slice(4)})`;
  if ((searchProviderIds as readonly string[]).includes(providerId))
    return `the search provider (${providerId})`;
  if (/reader/.test(providerId)) return `the page reader (${providerId})`;
  return `a service behind this server (${providerId})`;
}
