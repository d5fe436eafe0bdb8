import * as z from 'zod';
import { renderAnswerMarkdown } from '../agent/citations/format-footnotes.js';
import { referenceJson } from '../agent/citations/reference-json.js';
import { budgetPresets, reasoningEfforts } from '../config/budget-presets.js';
import type { ConfigOverrides } from '../config/derive-config.js';
import { definedOnly, deriveConfig } from '../config/derive-config.js';
import { isSinceValue, sinceHelp } from '../config/time-scope.js';
import type { DeepSearchResult } from '../events/deep-search-result.js';
import { describeSkipped } from '../retrieval/skipped-page.js';
import { defineMcpTool } from './mcp-tool.js';

const hostList = (what: string) =>
  z.array(z.string().min(1).max(253)).max(50).optional().describe(`${what}, e.g. ["en.wikipedia.org"]`);

export const inputSchema = {
  question: z
    .string()
    .trim()
    .min(1, 'the question is empty')
    .max(20_000)
    .describe('The question, in full sentences; add any context the answer depends on.'),
  effort: z
    .enum(reasoningEfforts)
    .optional()
    .describe(
      'Budget preset: low (8 steps, ~2 min), medium (20 steps, ~5 min), high (40 steps, ~15 min). Default: the server configuration.',
    ),
  max_steps: z.number().int().min(1).max(100).optional().describe('At most this many agent steps.'),
  max_tokens: z.number().int().min(1000).max(10_000_000).optional().describe('At most this many LLM tokens.'),
  max_seconds: z.number().positive().max(3600).optional().describe('Answer within this many seconds.'),
  language: z.string().min(2).max(35).optional().describe('Answer language (default: the question’s).'),
  only_hostnames: hostList('Search and read only these sites'),
  boost_hostnames: hostList('Prefer these sites'),
  bad_hostnames: hostList('Never read these sites'),
  since: z
    .string()
    .max(40)
    .refine(isSinceValue, `must be ${sinceHelp}`)
    .optional()
    .describe(`Only pages from then on: ${sinceHelp}.`),
};

const referenceSchema = z.object({
  index: z.number().int(),
  url: z.string(),
  title: z.string(),
  quote: z.string(),
  quote_kind: z.enum(['exact', 'sentence']),
  also_at: z
    .array(z.string())
    .optional()
    .describe('Other pages read that carry the same story: one source, cited at `url`.'),
});

const outputSchema = {
  answer: z.string().describe('Markdown with [^n] footnote markers matching `references`.'),
  references: z.array(referenceSchema),
  confidence: z.enum(['high', 'medium', 'low']),
  confidence_reason: z.string(),
  independent_sources: z
    .number()
    .int()
    .optional()
    .describe('How many independent sources the references quote: copies of one story count once.'),
  origin: z.string(),
  steps: z.number().int(),
  duration_ms: z.number(),
  usage: z.object({
    prompt_tokens: z.number(),
    completion_tokens: z.number(),
    total_tokens: z.number(),
    llm_calls: z.number(),
    search_calls: z.number(),
    read_calls: z.number(),
  }),
  skipped: z
    .array(z.object({ url: z.string(), reason: z.string(), detail: z.string() }))
    .describe('Pages chosen but not read (blocked by a bot check, a paywall or login stub, a timeout...).'),
  warnings: z.array(z.string()),
};

/** `deep_search`: the whole agent run, the tool agents and IDEs call instead of a plain web search. */
export const deepSearchTool = defineMcpTool({
  name: 'deep_search',
  title: 'Deep search',
  description:
    'Answers a question by searching the web, reading pages and reasoning over several steps until the answer ' +
    'can be cited, or the budget runs out. Returns a short markdown answer whose claims cite sources with ' +
    'quotes verified on the pages read, a confidence (high/medium/low) and the tokens used. Slow (tens of ' +
    'seconds to minutes; progress is reported) but thorough: use it for questions that need several sources ' +
    'or hops, and web_search for a quick lookup.',
  inputSchema,
  outputSchema,
  annotations: { readOnlyHint: true, openWorldHint: true },
  runsLong: true,
  async run(input, context) {
    const { result } = await context.runtime.run({
      mode: 'search',
      question: input.question,
      signal: context.signal,
      config: deriveConfig(context.runtime.config, overridesOf(input)),
      observers: [context.onEvent],
      record: { owner: context.owner, source: 'mcp' },
    });
    return { text: answerText(result), structured: structuredResult(result) };
  },
});

export function overridesOf(input: {
  effort?: (typeof reasoningEfforts)[number];
  max_steps?: number;
  max_tokens?: number;
  max_seconds?: number;
  language?: string;
  only_hostnames?: string[];
  boost_hostnames?: string[];
  bad_hostnames?: string[];
  since?: string;
}): ConfigOverrides {
  return {
    budget: {
      ...(input.effort ? budgetPresets[input.effort] : {}),
      ...definedOnly({
        maxSteps: input.max_steps,
        maxTokens: input.max_tokens,
        maxTimeSeconds: input.max_seconds,
      }),
    },
    agent: { language: input.language },
    search: {
      onlyHostnames: input.only_hostnames,
      boostHostnames: input.boost_hostnames,
      badHostnames: input.bad_hostnames,
      since: input.since,
    },
  };
}

/** What the model reads: the answer with its footnotes, then how sure it is. */
function answerText(result: DeepSearchResult): string {
  const answer = renderAnswerMarkdown(result.answer, result.references);
  const skipped = describeSkipped(result.skipped);
  return `${answer}\n\nConfidence: ${result.confidence} (${result.confidenceReason})${skipped ? `\n${skipped}.` : ''}`;
}

function structuredResult(result: DeepSearchResult): Record<string, unknown> {
  return {
    answer: result.answer,
    references: result.references.map(referenceJson),
    confidence: result.confidence,
    confidence_reason: result.confidenceReason,
    ...(result.independentSources !== undefined ? { independent_sources: result.independentSources } : {}),
    origin: result.origin,
    steps: result.steps,
    duration_ms: result.durationMs,
    usage: {
      prompt_tokens: result.usage.promptTokens,
      completion_tokens: result.usage.completionTokens,
      total_tokens: result.usage.totalTokens,
      llm_calls: result.usage.llmCalls,
      search_calls: result.usage.searchCalls,
      read_calls: result.usage.readCalls,
    },
    skipped: result.skipped,
    warnings: result.warnings,
  };
}
