import { ProviderError } from '../../errors/index.js';
import { displayUrl } from './describe-network-error.js';
import { type RequestJsonOptions, sendRequest, throwForStatus } from './request-json.js';

export type RequestTextOptions = Omit<RequestJsonOptions<unknown>, 'schema'>;

/** The text of a response: the same timeout and typed errors as requestJson, for HTML endpoints. */
export async function requestText(options: RequestTextOptions): Promise<{ status: number; text: string }> {
  const response = await sendRequest(options);
  const where = `${options.providerId} (${displayUrl(options.url)})`;
  if (!response.ok) await throwForStatus(response, options, where);
  try {
    return { status: response.status, text: await response.text() };
  } catch (cause) {
    throw new ProviderError(`${where} broke off its answer`, {
      providerId: options.providerId,
      code: 'provider_unreachable',
      isRetryable: true,
      cause,
    });
  }
}
