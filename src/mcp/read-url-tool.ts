import * as z from 'zod';
import { defineMcpTool } from './mcp-tool.js';

/** Longest page text returned: a whole book would fill the client model's context. */
const defaultMaxChars = 40_000;

/**
 * `read_url`: one page through the configured reader, with the same rules as the agent's reads
 * (private and loopback addresses refused unless the server allows them, files only when allowed).
 */
export const readUrlTool = defineMcpTool({
  name: 'read_url',
  title: 'Read a web page',
  description:
    'Fetches a web page (HTML, PDF, text) and returns its main content as markdown, without menus, ads or ' +
    'footers, with its title and dates. Private and loopback addresses are refused. Long pages are cut to ' +
    'max_chars.',
  inputSchema: {
    url: z
      .string()
      .trim()
      .min(1, 'the URL is empty')
      .max(8192)
      .describe('The http(s) URL to read (or a kb: URL from kb_search).'),
    max_chars: z
      .number()
      .int()
      .min(500)
      .max(500_000)
      .optional()
      .describe(`Longest markdown returned (default ${defaultMaxChars}).`),
  },
  outputSchema: {
    url: z.string(),
    title: z.string(),
    published_at: z.string().optional(),
    markdown: z.string(),
    truncated: z.boolean(),
    empty_reason: z.string().optional(),
  },
  annotations: { readOnlyHint: true, openWorldHint: true, idempotentHint: true },
  async run(input, { runtime, signal }) {
    const page = await runtime.reader.read(input.url, { signal });
    const maxChars = input.max_chars ?? defaultMaxChars;
    const truncated = page.markdown.length > maxChars;
    const markdown = truncated
      ? `${page.markdown.slice(0, maxChars)}\n\n[… cut at ${maxChars} characters]`
      : page.markdown;
    const date = page.publishedAt ?? page.modifiedAt;
    // A (nearly) empty page says why, rather than looking like a page without text.
    const note = page.emptyReason ? `note: this page is ${page.emptyReason}` : '';
    const header = [`# ${page.title || page.url}`, `<${page.url}>`, date ? `date: ${date}` : '', note]
      .filter(Boolean)
      .join('\n');
    return {
      text: `${header}\n\n${markdown}`,
      structured: {
        url: page.url,
        title: page.title,
        ...(date ? { published_at: date } : {}),
        markdown,
        truncated,
        ...(page.emptyReason ? { empty_reason: page.emptyReason } : {}),
      },
    };
  },
});
