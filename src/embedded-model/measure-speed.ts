import type { LlamaModel, LlamaSequence } from './load-llama-runtime.js';

/** The prompt the speed probe reads: English prose, like the agent's prompts. */
export const speedPrompt =
  'Summarise in one sentence what a deep search agent does when it searches the web, reads the pages it ' +
  'found, keeps the passages that answer the question and cites each claim to a quote from a source. ';

/** Tokens read per evaluation while timing: small, so a slow model stops near its time budget. */
const readChunk = 16;
/** Tokens written at most while timing. */
const writeTokens = 24;

/**
 * Prompt tokens read per second, reading the probe's prose in small batches until `budgetMs` has
 * passed (a 4B model on a slow CPU reads a few dozen tokens a second: the probe stays short).
 */
export async function measureReading(
  sequence: LlamaSequence,
  model: LlamaModel,
  options: { budgetMs: number; signal?: AbortSignal },
): Promise<number> {
  await sequence.clearHistory();
  const tokens = model.tokenize(speedPrompt.repeat(4));
  const started = performance.now();
  let read = 0;
  while (read < tokens.length && performance.now() - started < options.budgetMs) {
    options.signal?.throwIfAborted();
    await sequence.evaluateWithoutGeneratingNewTokens(tokens.slice(read, read + readChunk));
    read += readChunk;
  }
  const seconds = (performance.now() - started) / 1000;
  await sequence.clearHistory();
  return Math.round(Math.min(read, tokens.length) / Math.max(seconds, 1e-3));
}

/**
 * Tokens written per second: what writing costs, one token per evaluation (a batch of one, as each
 * written token is), the probe's prose fed a token at a time until `writeTokens` or `budgetMs`
 * (sampling is left out: it is cheap beside the evaluation). A model too slow to take a second
 * token within the budget is rated by its first.
 */
export async function measureWriting(
  sequence: LlamaSequence,
  model: LlamaModel,
  options: { budgetMs: number; signal?: AbortSignal },
): Promise<number> {
  await sequence.clearHistory();
  const tokens = model.tokenize(speedPrompt).slice(0, writeTokens);
  const started = performance.now();
  let written = 0;
  for (const token of tokens) {
    options.signal?.throwIfAborted();
    await sequence.evaluateWithoutGeneratingNewTokens([token]);
    written += 1;
    if (performance.now() - started >= options.budgetMs) break;
  }
  const seconds = (performance.now() - started) / 1000;
  await sequence.clearHistory();
  return Math.round((written / Math.max(seconds, 1e-3)) * 10) / 10;
}
