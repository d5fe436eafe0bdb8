import { ConfigError } from '../../core/errors/index.js';
import { anySignal } from '../../core/link-signals.js';

/** A local server that may be running: Ollama lists models at /api/tags, the others at /v1/models. */
export interface LocalLlmCandidate {
  name: string;
  /** Without a trailing slash and without /v1, e.g. http://127.0.0.1:11434 */
  url: string;
  api: 'ollama' | 'openai';
}

export interface DiscoveredLlm {
  candidate: LocalLlmCandidate;
  /** The OpenAI-compatible endpoint to configure: `${url}/v1`. */
  baseURL: string;
  model: string;
}

/** The usual ports, in the order they are preferred when several answer. */
export const defaultLocalLlmCandidates: readonly LocalLlmCandidate[] = [
  { name: 'Ollama', url: 'http://127.0.0.1:11434', api: 'ollama' },
  { name: 'LM Studio', url: 'http://127.0.0.1:1234', api: 'openai' },
  { name: 'llama.cpp', url: 'http://127.0.0.1:8080', api: 'openai' },
  { name: 'vLLM', url: 'http://127.0.0.1:8000', api: 'openai' },
];

export interface DiscoverLocalLlmOptions {
  candidates?: readonly LocalLlmCandidate[];
  /** Per probe; a closed port answers at once, a busy unrelated service should not hold the start. */
  timeoutMs?: number;
  fetch?: typeof globalThis.fetch;
  signal?: AbortSignal;
}

/**
 * Probes every candidate at once and returns the first (in candidate order) that lists a chat
 * model, or undefined. Never throws for a server that is down, slow or speaks something else.
 */
export async function discoverLocalLlm(
  options: DiscoverLocalLlmOptions = {},
): Promise<DiscoveredLlm | undefined> {
  const candidates = options.candidates ?? defaultLocalLlmCandidates;
  const models = await Promise.all(candidates.map((candidate) => probe(candidate, options)));
  for (const [index, candidate] of candidates.entries()) {
    const model = models[index];
    if (model) return { candidate, baseURL: `${candidate.url}/v1`, model };
  }
  return undefined;
}

async function probe(
  candidate: LocalLlmCandidate,
  options: DiscoverLocalLlmOptions,
): Promise<string | undefined> {
  const fetcher = options.fetch ?? globalThis.fetch;
  const timeout = AbortSignal.timeout(options.timeoutMs ?? 800);
  const signal = anySignal(timeout, options.signal);
  try {
    const path = candidate.api === 'ollama' ? '/api/tags' : '/v1/models';
    const response = await fetcher(`${candidate.url}${path}`, {
      signal,
      headers: { accept: 'application/json' },
    });
    if (!response.ok) return undefined;
    const body = (await response.json()) as unknown;
    return pickChatModel(candidate.api === 'ollama' ? ollamaModels(body) : openAiModels(body));
  } catch {
    return undefined;
  }
}

function ollamaModels(body: unknown): string[] {
  const models = (body as { models?: unknown })?.models;
  if (!Array.isArray(models)) return [];
  return models.map((model) => (model as { name?: unknown })?.name).filter(isNonEmptyString);
}

function openAiModels(body: unknown): string[] {
  const data = (body as { data?: unknown })?.data;
  if (!Array.isArray(data)) return [];
  return data.map((model) => (model as { id?: unknown })?.id).filter(isNonEmptyString);
}

// Embedding models are listed beside chat models by Ollama and LM Studio; they cannot answer.
function pickChatModel(models: string[]): string | undefined {
  return models.find((model) => !/embed|rerank/i.test(model));
}

function isNonEmptyString(value: unknown): value is string {
  return typeof value === 'string' && value.trim() !== '';
}

/**
 * The candidates to probe from DEEPSEARCH_LOCAL_LLM_URLS: unset means the defaults; `off` (or
 * `none`, `0`) turns discovery off; otherwise comma-separated `ollama=URL` or `openai=URL` entries.
 */
export function parseLocalLlmCandidates(value: string | undefined): readonly LocalLlmCandidate[] {
  if (value === undefined || value.trim() === '') return defaultLocalLlmCandidates;
  if (['off', 'none', '0', 'false', 'no'].includes(value.trim().toLowerCase())) return [];
  return value
    .split(',')
    .map((entry) => entry.trim())
    .filter(Boolean)
    .map((entry) => {
      const match = /^(ollama|openai)=(https?:\/\/\S+)$/.exec(entry);
      if (!match) {
        throw new ConfigError(
          `DEEPSEARCH_LOCAL_LLM_URLS: "${entry}" is not ollama=URL or openai=URL (or set it to off)`,
          { code: 'config_invalid' },
        );
      }
      const api = match[1] as LocalLlmCandidate['api'];
      return {
        name: api === 'ollama' ? 'Ollama' : 'an OpenAI-compatible server',
        url: match[2]!.replace(/\/+$/, ''),
        api,
      };
    });
}
