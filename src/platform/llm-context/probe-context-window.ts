/** A server's context window for one model, and where it was read. */
export interface ContextWindow {
  tokens: number;
  /** e.g. "Ollama /api/show num_ctx", for the warning and --debug. */
  source: string;
  /**
   * The provider sized the window itself (the embedded model: the small profile's window, or
   * what memory allows): prompts are fitted to it without a warning to enlarge a server's.
   */
  chosenByProvider?: boolean;
}

export interface ProbeOptions {
  /** The OpenAI-compatible base URL, e.g. http://localhost:11434/v1. */
  baseURL: string;
  model: string;
  apiKey?: string;
  fetch?: typeof globalThis.fetch;
  /** For all requests together; a server that is slow to describe itself is not waited for. */
  timeoutMs?: number;
}

type Json = Record<string, unknown>;

/**
 * Asks a local or self-hosted server how many tokens the model's context holds. Every known
 * endpoint is asked at once and the most specific answer wins: what is loaded (Ollama /api/ps,
 * llama.cpp /props, LM Studio's loaded length) before what is configured (Ollama num_ctx,
 * vLLM max_model_len) before what the model could do (Ollama's <arch>.context_length). Servers
 * that don't have an endpoint answer 404 and are skipped; nothing here throws.
 */
export async function probeContextWindow(options: ProbeOptions): Promise<ContextWindow | undefined> {
  const fetchImpl = options.fetch ?? globalThis.fetch;
  const signal = AbortSignal.timeout(options.timeoutMs ?? 2000);
  const base = options.baseURL.replace(/\/+$/, '');
  const root = base.replace(/\/v1$/, '');
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (options.apiKey) headers.authorization = `Bearer ${options.apiKey}`;
  const get = (url: string, body?: unknown) =>
    readJson(fetchImpl, url, {
      method: body === undefined ? 'GET' : 'POST',
      headers,
      signal,
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
  const model = options.model;
  const [models, props, ps, show, lmStudio] = await Promise.all([
    get(`${base}/models`),
    get(`${root}/props`),
    get(`${root}/api/ps`),
    get(`${root}/api/show`, { model }),
    get(`${root}/api/v0/models/${encodeURIComponent(model)}`),
  ]);
  const listed = findModel(models, model);
  const candidates: Array<[number | undefined, string]> = [
    [fromOllamaPs(ps, model), 'Ollama /api/ps context_length (the loaded model)'],
    [
      positive(record(props?.default_generation_settings)?.n_ctx) ?? positive(props?.n_ctx),
      'llama.cpp /props n_ctx',
    ],
    [positive(lmStudio?.loaded_context_length), 'LM Studio loaded_context_length'],
    [positive(listed?.loaded_context_length), 'LM Studio loaded_context_length'],
    [fromOllamaParameters(show), 'Ollama /api/show num_ctx'],
    [positive(listed?.max_model_len), '/v1/models max_model_len'],
    [positive(listed?.context_length) ?? positive(listed?.context_window), '/v1/models context_length'],
    [positive(lmStudio?.max_context_length), 'LM Studio max_context_length'],
    [fromOllamaModelInfo(show), "Ollama /api/show model_info (the model's maximum)"],
  ];
  for (const [tokens, source] of candidates) {
    if (tokens !== undefined) return { tokens, source };
  }
  return undefined;
}

async function readJson(
  fetchImpl: typeof globalThis.fetch,
  url: string,
  init: RequestInit,
): Promise<Json | undefined> {
  try {
    const response = await fetchImpl(url, init);
    if (!response.ok) {
      await response.body?.cancel();
      return undefined;
    }
    return record(await response.json());
  } catch {
    return undefined;
  }
}

function findModel(list: Json | undefined, model: string): Json | undefined {
  const entries = Array.isArray(list?.data) ? list.data : Array.isArray(list?.models) ? list.models : [];
  const items = entries.map(record).filter((item): item is Json => item !== undefined);
  return (
    items.find((item) => item.id === model || item.name === model) ??
    (items.length === 1 ? items[0] : undefined)
  );
}

function fromOllamaPs(ps: Json | undefined, model: string): number | undefined {
  const models = Array.isArray(ps?.models) ? ps.models.map(record) : [];
  const loaded = models.find((item) => item?.name === model || item?.model === model);
  return positive(loaded?.context_length);
}

function fromOllamaParameters(show: Json | undefined): number | undefined {
  const parameters = typeof show?.parameters === 'string' ? show.parameters : '';
  const match = /^\s*num_ctx\s+(\d+)/m.exec(parameters);
  return match ? positive(Number(match[1])) : undefined;
}

function fromOllamaModelInfo(show: Json | undefined): number | undefined {
  const info = record(show?.model_info);
  if (!info) return undefined;
  const architecture = info['general.architecture'];
  if (typeof architecture === 'string') return positive(info[`${architecture}.context_length`]);
  const key = Object.keys(info).find((name) => name.endsWith('.context_length'));
  return key ? positive(info[key]) : undefined;
}

function record(value: unknown): Json | undefined {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Json) : undefined;
}

function positive(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isInteger(value) && value > 0 ? value : undefined;
}
