import { existsSync } from 'node:fs';
import * as z from 'zod';
import { defineMcpTool } from './mcp-tool.js';

/**
 * `kb_search`: the user's own documents (deepsearch kb add), hybrid full-text + vector search.
 * Offered only when the knowledge base file exists, so a client never sees a tool that can only fail.
 */
export const kbSearchTool = defineMcpTool({
  name: 'kb_search',
  title: 'Search your documents',
  description:
    "Searches the user's local knowledge base (documents added with `deepsearch kb add`: notes, PDFs, " +
    'Word files, saved pages) with full-text and semantic search. Returns the best passages with their ' +
    'kb: URL (read_url returns the whole document of one), document title and score.',
  inputSchema: {
    query: z.string().trim().min(1, 'the query is empty').max(2000).describe('What to look for.'),
    limit: z.number().int().min(1).max(50).optional().describe('Passages wanted (default 8).'),
    collection: z.string().min(1).max(200).optional().describe('Only this collection (default: all).'),
  },
  outputSchema: {
    query: z.string(),
    hits: z.array(
      z.object({
        url: z.string(),
        title: z.string(),
        source: z.string(),
        collection: z.string(),
        text: z.string(),
        score: z.number(),
      }),
    ),
  },
  annotations: { readOnlyHint: true, openWorldHint: false, idempotentHint: true },
  isEnabled: (runtime) => runtime.knowledgeBase !== undefined && existsSync(runtime.knowledgeBase.file),
  async run(input, { runtime, signal }) {
    const knowledgeBase = runtime.knowledgeBase!;
    const result = await knowledgeBase.search({
      query: input.query,
      limit: input.limit ?? 8,
      collection: input.collection ?? runtime.config.knowledge.collection,
      signal,
    });
    const hits = result.hits.map((hit) => ({
      url: hit.url,
      title: hit.title,
      source: hit.source,
      collection: hit.collection,
      text: hit.text,
      score: hit.score,
    }));
    const text =
      hits.length === 0
        ? 'no passages found'
        : hits.map((hit, index) => `${index + 1}. ${hit.title} <${hit.url}>\n${hit.text}`).join('\n\n');
    return { text, structured: { query: input.query, hits } };
  },
});
