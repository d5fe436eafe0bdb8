import { describe, expect, it } from 'vitest';
import type { EmbeddingProvider } from '../../providers/spec/embedding-provider.js';
import type { LlmClient, StructuredRequest } from '../../providers/spec/llm-client.js';
import { claimComparers } from './claim-judge.js';

function embeddings(builtin: boolean): EmbeddingProvider {
  return {
    specificationVersion: 'v1',
    id: builtin ? 'lexical' : 'jina',
    model: 'm',
    builtin,
    embed: async (texts) => ({ vectors: texts.map(() => new Float32Array([1, 0])), failures: [] }),
  };
}

describe('claimComparers', () => {
  it('uses a real embedding service, not the built-in lexical one', async () => {
    expect(claimComparers({ embeddings: embeddings(true) }).embed).toBeUndefined();
    const embed = claimComparers({ embeddings: embeddings(false) }).embed!;
    expect(await embed(['a', 'b'])).toEqual([new Float32Array([1, 0]), new Float32Array([1, 0])]);
  });

  it("asks the evaluator role for a verdict on the pair and reads it, whatever the model's case", async () => {
    const requests: Array<StructuredRequest<unknown>> = [];
    const llm = {
      specificationVersion: 'v1',
      generateObject: async (request: StructuredRequest<unknown>) => {
        requests.push(request);
        const object = request.schema.parse(
          (request.repair as (value: unknown) => unknown)({ verdict: ' Changed ' }),
        );
        return { object } as never;
      },
      generateText: async () => {
        throw new Error('not used');
      },
    } as unknown as LlmClient;
    const judge = claimComparers({ llm }).judge!;
    expect(await judge('The fee is $20.', 'The fee is $25.')).toBe('changed');
    expect(requests[0]).toMatchObject({ role: 'evaluator', schemaName: 'claim_verdict' });
    expect(String(requests[0]!.prompt)).toContain('Earlier: The fee is $20.\nNow: The fee is $25.');
  });
});
