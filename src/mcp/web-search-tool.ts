import * as z from 'zod';
import type { SearchHit } from '../providers/spec/search-provider.js';
import { timeRanges } from '../providers/spec/search-provider.js';
import { defineMcpTool } from './mcp-tool.js';

const hitSchema = z.object({
  url: z.string(),
  title: z.string(),
  snippet: z.string(),
  published_at: z.string().optional(),
});

/** `web_search`: one search with the configured provider(s) and cache, as `deepsearch search` does. */
export const webSearchTool = defineMcpTool({
  name: 'web_search',
  title: 'Web search',
  description:
    'Searches the web with the configured search provider and returns the hits (title, URL, snippet, date ' +
    'when known). Fast, one query, no reading or reasoning: use read_url to read a hit, deep_search for a ' +
    'researched answer.',
  inputSchema: {
    query: z.string().trim().min(1, 'the query is empty').max(2000).describe('The search query.'),
    count: z
      .number()
      .int()
      .min(1)
      .max(50)
      .optional()
      .describe('Hits wanted (default: the configured count).'),
    time_range: z
      .enum(timeRanges)
      .optional()
      .describe('Only results from the last hour/day/week/month/year.'),
    site: z.string().min(1).max(253).optional().describe('Only results from this host, e.g. nodejs.org.'),
    language: z.string().min(2).max(35).optional().describe('Result language, e.g. en, fr-FR.'),
    region: z.string().length(2).optional().describe('Two-letter country code, e.g. us, de.'),
  },
  outputSchema: { query: z.string(), provider: z.string(), hits: z.array(hitSchema) },
  annotations: { readOnlyHint: true, openWorldHint: true, idempotentHint: true },
  async run(input, { runtime, signal }) {
    const hits = await runtime.search.search(input.query, {
      count: input.count,
      timeRange: input.time_range,
      site: input.site,
      language: input.language,
      region: input.region,
      signal,
    });
    return {
      text: renderHits(hits),
      structured: {
        query: input.query,
        provider: runtime.search.id,
        hits: hits.map((hit) => ({
          url: hit.url,
          title: hit.title,
          snippet: hit.snippet,
          ...(hit.publishedAt ? { published_at: hit.publishedAt } : {}),
        })),
      },
    };
  },
});

function renderHits(hits: readonly SearchHit[]): string {
  if (hits.length === 0) return 'no results';
  return hits
    .map((hit, index) => {
      const date = hit.publishedAt ? ` (${hit.publishedAt.slice(0, 10)})` : '';
      return `${index + 1}. ${hit.title || hit.url}${date}\n   ${hit.url}\n   ${hit.snippet}`;
    })
    .join('\n\n');
}
