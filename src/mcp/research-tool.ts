import * as z from 'zod';
import { referenceJson } from '../agent/citations/reference-json.js';
import { deriveConfig } from '../config/derive-config.js';
import { parsePlanMarkdown } from '../research/plan/plan-markdown.js';
import { inputSchema as deepSearchInput, overridesOf } from './deep-search-tool.js';
import { defineMcpTool } from './mcp-tool.js';

const { question: _question, ...budgetAndHosts } = deepSearchInput;

const inputSchema = {
  topic: z
    .string()
    .trim()
    .min(1, 'the topic is empty')
    .max(20_000)
    .describe('What the report is about, in full sentences; the report is written in its language.'),
  outline: z
    .string()
    .max(100_000)
    .optional()
    .describe(
      'An outline to follow instead of planning one: markdown with "# Title", "## Section" headings and "- question" lines (as `deepsearch research --outline-only` prints it).',
    ),
  ...budgetAndHosts,
};

/** `research`: research mode, a planned, cited, fact-checked report with follow-up questions. */
export const researchTool = defineMcpTool({
  name: 'research',
  title: 'Research report',
  description:
    'Writes a long, structured report on a topic: plans sections and the data points they need, researches ' +
    'each section with deep searches over the web (several in parallel), checks coverage, fact-checks the ' +
    'draft and ends with follow-up questions. Every footnote cites a quote verified on the page it came from. ' +
    'Slow (minutes; progress is reported by persona) and uses far more tokens than deep_search: use it when ' +
    'a report is wanted, deep_search for a question.',
  inputSchema,
  outputSchema: {
    title: z.string(),
    summary: z.string(),
    markdown: z.string().describe('The whole report, footnotes and follow-up questions included.'),
    references: z.array(
      z.object({
        index: z.number().int(),
        url: z.string(),
        title: z.string(),
        quote: z.string(),
        quote_kind: z.enum(['exact', 'sentence']),
        also_at: z.array(z.string()).optional(),
      }),
    ),
    follow_ups: z.array(z.string()),
    fact_check: z.object({
      claims: z.number(),
      supported: z.number(),
      revised: z.number(),
      removed: z.number(),
    }),
    total_tokens: z.number(),
    duration_ms: z.number(),
    skipped: z
      .array(z.object({ url: z.string(), reason: z.string(), detail: z.string() }))
      .describe('Pages chosen but not read (blocked by a bot check, a paywall or login stub, a timeout...).'),
    warnings: z.array(z.string()),
  },
  annotations: { readOnlyHint: true, openWorldHint: true },
  runsLong: true,
  async run(input, context) {
    const plan = input.outline ? parsePlanMarkdown(input.outline, { topic: input.topic }) : undefined;
    const { result: report } = await context.runtime.run({
      mode: 'research',
      question: input.topic,
      signal: context.signal,
      plan,
      config: deriveConfig(context.runtime.config, overridesOf(input)),
      observers: [context.onEvent],
      record: { owner: context.owner, source: 'mcp', mode: 'research' },
    });
    return {
      text: report.markdown,
      structured: {
        title: report.title,
        summary: report.summary,
        markdown: report.markdown,
        references: report.references.map(referenceJson),
        follow_ups: report.followUps,
        fact_check: report.factCheck,
        total_tokens: report.usage.totalTokens,
        duration_ms: report.durationMs,
        skipped: report.skipped ?? [],
        warnings: report.warnings,
      },
    };
  },
});
