import type { LlmClient, TokenUsage } from '../../providers/spec/llm-client.js';
import type { DocumentChunk } from '../chunk-document.js';
import {
  analyzeChunkPrompt,
  analyzeChunkSystemPrompt,
  type ChunkAnalysis,
  chunkAnalysisSchema,
  documentSummaryPrompt,
  documentSummarySchema,
  documentSummarySystemPrompt,
} from './analyze-chunk-prompt.js';

export interface DocumentAnalysis {
  summary: string;
  /** One per chunk, in order; undefined where the call failed (the chunk is still indexed). */
  chunks: Array<ChunkAnalysis | undefined>;
  usage: TokenUsage;
  calls: number;
  failures: string[];
}

export interface AnalysisEstimate {
  calls: number;
  inputTokens: number;
}

// The prompt's own words and the reply, per call, on top of the passage.
const overheadTokensPerCall = 350;

/** What analysing documents of this many characters and chunks will cost, before doing it. */
export function estimateAnalysis(input: {
  chars: number;
  chunks: number;
  documents: number;
}): AnalysisEstimate {
  const calls = input.chunks + input.documents;
  return { calls, inputTokens: Math.ceil(input.chars / 4) + calls * overheadTokensPerCall };
}

/**
 * Seed 004's document analysis: per chunk a summary, typed entities and typed relationships
 * (predicates normalised), per table also key insights; then one summary of the document from the
 * chunk summaries. Runs with the `analyzer` role; a failed call leaves that chunk unanalysed.
 */
export async function analyzeDocument(input: {
  llm: LlmClient;
  title: string;
  chunks: readonly DocumentChunk[];
  signal?: AbortSignal;
}): Promise<DocumentAnalysis> {
  const usage: TokenUsage = { promptTokens: 0, completionTokens: 0, totalTokens: 0 };
  const failures: string[] = [];
  let calls = 0;
  const add = (used: TokenUsage) => {
    usage.promptTokens += used.promptTokens;
    usage.completionTokens += used.completionTokens;
    usage.totalTokens += used.totalTokens;
    calls++;
  };
  const analyses: Array<ChunkAnalysis | undefined> = [];
  for (const chunk of input.chunks) {
    try {
      const result = await input.llm.generateObject({
        role: 'analyzer',
        system: analyzeChunkSystemPrompt,
        prompt: analyzeChunkPrompt({
          title: input.title,
          heading: chunk.heading,
          kind: chunk.kind,
          text: chunk.text,
        }),
        schema: chunkAnalysisSchema,
        schemaName: 'chunk_analysis',
        signal: input.signal,
      });
      add(result.usage);
      analyses.push(normalizeAnalysis(result.object));
    } catch (error) {
      if (input.signal?.aborted) throw error;
      failures.push((error as Error).message);
      analyses.push(undefined);
    }
  }
  const summaries = analyses.flatMap((analysis) => (analysis?.summary ? [analysis.summary] : []));
  let summary = summaries.join(' ');
  if (summaries.length > 1) {
    const result = await input.llm.generateObject({
      role: 'analyzer',
      system: documentSummarySystemPrompt,
      prompt: documentSummaryPrompt({ title: input.title, summaries }),
      schema: documentSummarySchema,
      schemaName: 'document_summary',
      signal: input.signal,
    });
    add(result.usage);
    summary = result.object.summary;
  }
  return { summary, chunks: analyses, usage, calls, failures };
}

function normalizeAnalysis(analysis: ChunkAnalysis): ChunkAnalysis {
  return {
    ...analysis,
    entities: analysis.entities
      .filter((entity) => entity.name.trim())
      .map((entity) => ({ name: entity.name.trim(), type: entity.type.trim().toLowerCase() || 'other' })),
    relationships: analysis.relationships
      .filter((relation) => relation.subject.trim() && relation.object.trim())
      .map((relation) => ({ ...relation, predicate: normalizePredicate(relation.predicate) })),
  };
}

const auxiliaries = new Set([
  'is',
  'was',
  'are',
  'were',
  'be',
  'been',
  'has',
  'have',
  'had',
  'the',
  'a',
  'an',
]);

/** "Was Founded By" → "founded_by": one spelling per relation, so they can be compared and searched. */
export function normalizePredicate(predicate: string): string {
  const words = predicate
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter(Boolean);
  const kept = words.filter((word, index) => !(auxiliaries.has(word) && index < words.length - 1));
  return (kept.length > 0 ? kept : words).join('_') || 'related_to';
}
