import * as z from 'zod';
import type { EmbeddingProvider } from '../../providers/spec/embedding-provider.js';
import type { LlmClient } from '../../providers/spec/llm-client.js';
import type { CompareOptions } from './claim-types.js';

const verdictSchema = z.object({
  verdict: z.enum(['same', 'changed', 'different']),
});

const system = [
  'You compare two sentences from two answers to the same question, written at different times.',
  'Say "same" if they state the same fact (other words, other order, more or less detail but no other value).',
  'Say "changed" if they are about the same thing but a value differs: a number, a date, a name, a status.',
  'Say "different" if they are about different things.',
  'Reply with JSON: {"verdict": "same" | "changed" | "different"}.',
].join('\n');

/**
 * What the claim matcher may use from the configured services: the LLM (the evaluator role) to
 * judge pairs that stay ambiguous, and the embedding service when it is a real one (the built-in
 * lexical fallback adds nothing to the matcher's own word overlap).
 */
export function claimComparers(services: {
  llm?: LlmClient;
  embeddings?: EmbeddingProvider;
  signal?: AbortSignal;
}): CompareOptions {
  const { llm, embeddings, signal } = services;
  return {
    signal,
    ...(embeddings && !embeddings.builtin
      ? {
          embed: async (texts: string[]) =>
            (await embeddings.embed(texts, { task: 'similarity', signal })).vectors,
        }
      : {}),
    ...(llm
      ? {
          judge: async (before: string, after: string) =>
            (
              await llm.generateObject({
                role: 'evaluator',
                system,
                prompt: `Earlier: ${before}\nNow: ${after}`,
                schema: verdictSchema,
                schemaName: 'claim_verdict',
                signal,
                keyAliases: { answer: 'verdict', judgement: 'verdict', result: 'verdict' },
                repair: lowerVerdict,
              })
            ).object.verdict,
        }
      : {}),
  };
}

function lowerVerdict(value: unknown): unknown {
  if (typeof value !== 'object' || value === null) return value;
  const record = value as Record<string, unknown>;
  return typeof record.verdict === 'string'
    ? { ...record, verdict: record.verdict.trim().toLowerCase() }
    : value;
}
