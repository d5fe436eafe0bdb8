import { asErrorCode, isProviderError, ProviderError } from '../../core/errors/index.js';
import { displayUrl } from '../../platform/http/describe-network-error.js';
import type { ContentInput } from './content-extractor.js';

/** A read that failed the way a page does, as it crosses from an extraction process to its parent. */
export interface ExtractionFailure {
  message: string;
  code: string;
  providerId: string;
}

/**
 * What an extraction's error becomes: our errors keep their message and code; a parser's own
 * failure (a bug, a stack overflow) is a page that cannot be read, like any other.
 */
export function extractionFailure(error: unknown, input: ContentInput): ExtractionFailure {
  const { message, code } = isProviderError(error)
    ? error
    : {
        message: `${displayUrl(input.fetched.url)} could not be read: ${(error as Error)?.message ?? String(error)}`,
        code: 'page_unreadable',
      };
  return { message, code, providerId: input.providerId };
}

/** The error the parent throws for a failure: the same whether the page was parsed here or in a child. */
export function extractionFailureError(failure: ExtractionFailure): ProviderError {
  return new ProviderError(failure.message, {
    providerId: failure.providerId,
    code: asErrorCode(failure.code),
  });
}
