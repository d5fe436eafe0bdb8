import type { Reference } from '../../events/deep-search-result.js';

/** A reference in the snake_case of the wire formats (the API's `deepsearch` object, MCP's results). */
export function referenceJson(reference: Reference) {
  return {
    index: reference.index,
    url: reference.url,
    title: reference.title,
    quote: reference.quote,
    quote_kind: reference.quoteKind,
    // Other pages carrying the same story: one source, cited at `url`.
    ...(reference.alsoAt?.length ? { also_at: reference.alsoAt } : {}),
  };
}
