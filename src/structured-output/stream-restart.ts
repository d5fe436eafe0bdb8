import type { LanguageModelV3StreamPart } from '@ai-sdk/provider';
import type { RetryNotice } from './structured-output-request.js';

/**
 * A streamed request that fails half-way is sent again by the model's retry middleware, inside
 * one streamText call. What the consumer read of the failed attempt must be voided at the exact
 * place in the stream where the new attempt begins, and only a part in the stream itself keeps
 * that order through the SDK's own stream pipeline: a `raw` part, which streamText passes on to
 * `fullStream` when `includeRawChunks` is set (the middleware asks the provider for none of its own).
 */
const restartKey = 'deepsearch.stream-restart';

export function restartPart(notice: RetryNotice): LanguageModelV3StreamPart {
  return { type: 'raw', rawValue: { [restartKey]: notice } };
}

/** The notice a restart part carries, or undefined for any other raw chunk. */
export function readRestart(rawValue: unknown): RetryNotice | undefined {
  if (typeof rawValue !== 'object' || rawValue === null || !(restartKey in rawValue)) return undefined;
  return (rawValue as Record<typeof restartKey, RetryNotice>)[restartKey];
}
