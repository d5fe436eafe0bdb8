import * as z from 'zod';
import { type TimeRange, timeRanges } from '../../providers/spec/search-provider.js';
import { type DuplicateQuery, dedupQueries } from '../../retrieval/dedup-queries.js';
import { rewriteQueriesPrompt, rewriteQueriesSystemPrompt } from '../prompts/rewrite-queries-prompt.js';
import { callLlm, type RunContext } from '../run-context.js';
import { doneWithout, isFatal } from './step-errors.js';

export interface PlannedQuery {
  query: string;
  timeRange?: TimeRange;
  language?: string;
}

export const rewriteSchema = z.object({
  think: z.string().max(600).describe('One sentence on what the searches must find'),
  queries: z
    .array(
      z.object({
        query: z.string().min(1).max(200).describe('A short keyword query, 2-6 words'),
        timeRange: z
          .enum(['none', ...timeRanges])
          .describe('"none", or how recent results must be when the question is about recent events'),
        language: z
          .string()
          .max(12)
          .describe('Language code of the query ("en", "fr", "ja"), "" for the question\'s own'),
      }),
    )
    .min(1)
    // The most queries a step may search (agent.maxQueriesPerStep's highest value).
    .max(20),
});

const rewriteExample: z.infer<typeof rewriteSchema> = {
  think: 'Needs the 2019 winner and its director; French sources may help.',
  queries: [
    { query: 'Best Picture 2019 winner director', timeRange: 'none', language: '' },
    { query: 'Oscar meilleur film 2019 réalisateur', timeRange: 'none', language: 'fr' },
  ],
};

export interface SearchPlan {
  queries: PlannedQuery[];
  /** The agent's queries (and rewrites) dropped as repeats, with what each repeats. */
  duplicates: DuplicateQuery[];
}

/**
 * Seed 003's search planning: drop queries already searched or repeated in the batch, rewrite and
 * expand the rest with the rewriter role, and dedup the rewrites again. Reports what it did.
 */
export async function planQueries(
  context: RunContext,
  input: { question: string; queries: readonly string[] },
): Promise<SearchPlan> {
  const { config, state } = context;
  const max = config.agent.maxQueriesPerStep;
  const previous = state.searches.map((search) => search.query);
  const dedup = (queries: readonly string[]) =>
    dedupQueries({
      queries,
      previous,
      embedding: context.embedding,
      threshold: config.retrieval.dedupThreshold,
      cache: state.queryVectors,
      signal: context.signal,
    });
  const first = await dedup(input.queries);
  const duplicates: DuplicateQuery[] = [...first.duplicates];
  let planned: PlannedQuery[] = first.unique.slice(0, max).map((query) => ({ query }));
  let rewritten: PlannedQuery[] = [];
  if (planned.length > 0 && config.retrieval.queryRewrite) {
    rewritten = await rewriteQueries(context, input.question, first.unique.slice(0, max));
    const second = await dedup(rewritten.map((item) => item.query));
    duplicates.push(...second.duplicates);
    const kept = new Set(second.unique);
    const fresh = rewritten.filter((item) => kept.delete(item.query));
    if (fresh.length > 0) planned = fresh.slice(0, max);
  }
  if (first.warning) context.emit({ type: 'warning', step: context.step, message: first.warning });
  context.emit({
    type: 'search-plan',
    step: context.step,
    proposed: [...input.queries],
    duplicates,
    rewritten,
    embedding: context.embedding.builtin
      ? 'built-in lexical'
      : `${context.embedding.id} ${context.embedding.model}`,
  });
  return { queries: planned, duplicates };
}

/** The rewriter's queries; on an unusable reply the agent's own queries are searched as they are. */
async function rewriteQueries(
  context: RunContext,
  question: string,
  queries: string[],
): Promise<PlannedQuery[]> {
  try {
    const { object } = await callLlm(context, {
      role: 'rewriter',
      system: rewriteQueriesSystemPrompt({
        today: context.today,
        maxQueries: context.config.agent.maxQueriesPerStep,
      }),
      prompt: rewriteQueriesPrompt({ question, queries }),
      schema: rewriteSchema,
      schemaName: 'query_rewrite',
      example: rewriteExample,
    });
    return object.queries.map((item) => ({
      query: item.query.replace(/\s+/g, ' ').trim(),
      ...(item.timeRange !== 'none' ? { timeRange: item.timeRange } : {}),
      ...(/^[a-z]{2,3}(-[A-Za-z0-9]{2,8})*$/.test(item.language.trim())
        ? { language: item.language.trim() }
        : {}),
    }));
  } catch (error) {
    if (isFatal(error)) throw error;
    const warning = doneWithout({
      what: 'the query rewriter',
      instead: "searching the agent's own queries",
      error,
    });
    context.emit({ type: 'warning', step: context.step, ...warning });
    return [];
  }
}
