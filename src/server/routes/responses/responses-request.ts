import * as z from 'zod';
import { InputError } from '../../../core/errors/index.js';
import { invalidValue } from '../../http/read-json-object.js';

const contentPart = z.looseObject({ type: z.string(), text: z.unknown().optional() });

// Input items: messages (with or without `type: "message"`) are read; other items (reasoning,
// item references, tool results from earlier turns) carry nothing a deep search can use.
const inputItem = z.looseObject({
  type: z.string().optional(),
  role: z.string().optional(),
  content: z.union([z.string(), z.array(contentPart), z.null()]).optional(),
});

const textFormat = z.discriminatedUnion('type', [
  z.looseObject({ type: z.literal('text') }),
  z.looseObject({ type: z.literal('json_object') }),
  z.looseObject({
    type: z.literal('json_schema'),
    name: z.string(),
    schema: z.record(z.string(), z.unknown()),
    description: z.string().optional(),
    strict: z.boolean().nullable().optional(),
  }),
]);

/**
 * The Responses API fields this server reads. Everything else (deepsearch's own options such as
 * `max_steps`, and OpenAI fields that mean nothing here) passes through to the chat request it is
 * translated into, where it is validated like a chat completion's.
 */
export const responsesRequestSchema = z.looseObject({
  model: z.string().min(1),
  input: z.union([z.string(), z.array(inputItem)]),
  instructions: z.string().nullable().optional(),
  stream: z.boolean().nullable().optional(),
  reasoning: z.looseObject({ effort: z.unknown().optional() }).nullable().optional(),
  text: z.looseObject({ format: textFormat.optional() }).nullable().optional(),
  tool_choice: z.unknown().optional(),
  previous_response_id: z.string().nullable().optional(),
});
export type ResponsesRequest = z.infer<typeof responsesRequestSchema>;

const roles = new Set(['system', 'developer', 'user', 'assistant']);

/** Reads a Responses API body into the chat completions body it means, for the same checks and run. */
export function toChatBody(raw: Record<string, unknown>): Record<string, unknown> {
  const parsed = responsesRequestSchema.safeParse(raw);
  if (!parsed.success) throw invalidValue(parsed.error);
  const body = parsed.data;
  if (body.previous_response_id) {
    throw new InputError(
      'previous_response_id is not supported: responses are not stored, send the whole conversation in input',
      { param: 'previous_response_id', code: 'unsupported_parameter' },
    );
  }
  const {
    input,
    instructions,
    reasoning,
    text,
    tool_choice,
    previous_response_id: _previous,
    stream_options: _streamOptions,
    ...rest
  } = body;
  const messages = [
    ...(instructions ? [{ role: 'system', content: instructions }] : []),
    ...(typeof input === 'string'
      ? [{ role: 'user', content: input }]
      : input.filter((item) => item.role && roles.has(item.role) && (item.type ?? 'message') === 'message')),
  ];
  return {
    ...rest,
    messages,
    ...(reasoning?.effort !== undefined && reasoning.effort !== null
      ? { reasoning_effort: reasoning.effort }
      : {}),
    ...(text?.format ? { response_format: toResponseFormat(text.format) } : {}),
    // The chat check refuses a forced one, whichever API's shape it has.
    ...(tool_choice !== undefined ? { tool_choice } : {}),
  };
}

function toResponseFormat(format: z.infer<typeof textFormat>): Record<string, unknown> {
  if (format.type !== 'json_schema') return { type: format.type };
  const { type: _type, ...jsonSchema } = format;
  return { type: 'json_schema', json_schema: jsonSchema };
}
