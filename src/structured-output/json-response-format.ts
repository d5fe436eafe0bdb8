import type { JSONSchema7, LanguageModelV3Middleware } from '@ai-sdk/provider';
import type { JsonSchemaNode } from './coerce-to-schema.js';

/**
 * Sends the schema as the request's JSON response format and leaves the reply as text, so the
 * engine parses and repairs it itself: the SDK's `Output.object` would parse and throw first.
 * The response format is part of the model interface (LanguageModelV3CallOptions), so a
 * middleware sets it through public API only.
 */
export function jsonResponseFormat(schema: JsonSchemaNode, name: string): LanguageModelV3Middleware {
  return {
    specificationVersion: 'v3',
    transformParams: async ({ params }) => ({
      ...params,
      responseFormat: { type: 'json', schema: schema as JSONSchema7, name },
    }),
  };
}
