import {
  isAbortError,
  isAuthenticationError,
  isConfigError,
  isProviderError,
} from '../../core/errors/index.js';
import type { SearchHit, SearchNotice, SearchOptions, SearchProvider } from '../spec/search-provider.js';

/**
 * Tries the providers in order: the next one is asked when a provider fails (rate limit, server
 * error, timeout, bad answer, rejected or missing key) or finds nothing, and the caller is told
 * through `onNotice`. When every provider fails, the error that needs the user is thrown (a
 * rejected or missing key before a rate limit), so a bad key is never reported as "no results".
 * Cancellation and programming errors stop the chain at once.
 */
export function createFallbackSearch(providers: readonly SearchProvider[]): SearchProvider {
  if (providers.length === 0) throw new Error('a fallback chain needs at least one provider');
  return {
    specificationVersion: 'v1',
    id: providers.map((provider) => provider.id).join(','),
    async search(query: string, options: SearchOptions = {}): Promise<SearchHit[]> {
      const failures: unknown[] = [];
      let answered = false;
      for (const [index, provider] of providers.entries()) {
        const next = providers[index + 1]?.id;
        try {
          const hits = await provider.search(query, options);
          if (hits.length > 0) return hits;
          answered = true;
          options.onNotice?.({
            kind: 'fallback',
            providerId: provider.id,
            nextProviderId: next,
            reason: 'no results',
          });
        } catch (error) {
          if (!isChainable(error)) throw error;
          failures.push(error);
          const reason = error instanceof Error ? error.message : String(error);
          options.onNotice?.({ kind: 'fallback', providerId: provider.id, nextProviderId: next, reason });
        }
      }
      if (answered) return [];
      throw mostActionable(failures);
    },
  };
}

function isChainable(error: unknown): boolean {
  if (isAbortError(error)) return false;
  return isProviderError(error) || isConfigError(error);
}

function mostActionable(failures: readonly unknown[]): unknown {
  return failures.find((error) => isAuthenticationError(error) || isConfigError(error)) ?? failures[0];
}

/** One line for a person following the run: an engine passed over for a query, or hits it dropped. */
export function describeSearchNotice(query: string, notice: SearchNotice): string {
  switch (notice.kind) {
    case 'fallback': {
      const next = notice.nextProviderId ? `; trying ${notice.nextProviderId}` : '';
      return `search "${query}": ${notice.providerId} passed over (${notice.reason})${next}`;
    }
    case 'private-hits-dropped': {
      const count = notice.urls.length;
      const shown = notice.urls.slice(0, 3).join(', ');
      const more = count > 3 ? ` and ${count - 3} more` : '';
      return `search "${query}": ${notice.providerId}: dropped ${count} ${count === 1 ? 'hit' : 'hits'} pointing at private or loopback addresses (${shown}${more}); --allow-private-network keeps them`;
    }
    case 'no-time-filter':
      return `${notice.providerId} has no time filter: its results are not limited to --since (older pages are ranked down)`;
    default:
      return assertNever(notice);
  }
}

function assertNever(notice: never): never {
  throw new Error(`unknown search notice ${JSON.stringify(notice)}`);
}
