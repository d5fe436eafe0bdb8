import { echoInput } from '../http/echo-input.js';
import { HttpError } from '../http/http-error.js';

/**
 * The models this server offers: `deepsearch` runs the deep search; `deepsearch-direct` asks the
 * LLM behind it once, without searching ("just ask the model"); `deepsearch-research` writes a
 * planned, cited, fact-checked report on the topic (research mode).
 */
export const serverModels = ['deepsearch', 'deepsearch-direct', 'deepsearch-research'] as const;
export type ServerModel = (typeof serverModels)[number];

/** Models answered by one plain LLM call instead of a deep search. */
export const directModels: ReadonlySet<string> = new Set(['deepsearch-direct']);

/** Models answered by research mode: the last user message is the topic, the report the reply. */
export const researchModels: ReadonlySet<string> = new Set(['deepsearch-research']);

/**
 * The model a client named, with Ollama-style tags read as the same model (`deepsearch:latest`):
 * chat UIs that know Ollama add them. Undefined when the server has no such model.
 */
export function resolveModel(id: string, models: readonly string[] = serverModels): string | undefined {
  const name = id.endsWith(':latest') ? id.slice(0, -':latest'.length) : id;
  return models.includes(name) ? name : undefined;
}

export function modelNotFound(id: string, models: readonly string[] = serverModels): HttpError {
  // Echoed input is cut short: a 1 MB model name must not come back whole.
  return new HttpError(`The model '${echoInput(id)}' does not exist (available: ${models.join(', ')})`, {
    status: 404,
    type: 'invalid_request_error',
    code: 'model_not_found',
    param: 'model',
  });
}
