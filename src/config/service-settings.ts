import { ConfigError } from '../core/errors/index.js';
import {
  configSchema,
  type DeepSearchConfig,
  type LlmRole,
  type StructuredOutputMode,
} from './config-schema.js';

/** Which server and model a role talks to; never its key. */
export interface ServiceChoice {
  provider?: string;
  baseURL?: string;
  model?: string;
}

/**
 * The services a run ran with — provider choices, base URLs, models — and never a key: what
 * `deepsearch resume` needs to go on with the same LLM, search instance, embeddings, reranker and
 * reader when today's flags, environment or config file say otherwise.
 */
export interface ServiceSettings {
  llm: ServiceChoice & {
    structuredOutput?: StructuredOutputMode;
    contextTokens?: number;
    roles: Partial<Record<LlmRole, ServiceChoice>>;
  };
  search: { searxngUrl?: string; baseURLs: Record<string, string> };
  embedding: ServiceChoice & { dimensions?: number };
  rerank: ServiceChoice;
  reader: { provider?: string; jinaBaseURL?: string };
}

export function serviceSettings(config: DeepSearchConfig): ServiceSettings {
  const { llm, search, embedding, rerank, reader } = config;
  const roles: ServiceSettings['llm']['roles'] = {};
  for (const [role, settings] of Object.entries(llm.roles) as Array<[LlmRole, ServiceChoice]>) {
    const choice = choiceOf(settings);
    if (Object.keys(choice).length > 0) roles[role] = choice;
  }
  return plain({
    llm: {
      ...choiceOf(llm),
      structuredOutput: llm.structuredOutput,
      contextTokens: llm.contextTokens,
      roles,
    },
    search: { searxngUrl: search.searxngUrl, baseURLs: { ...search.baseURLs } },
    embedding: { ...choiceOf(embedding), dimensions: embedding.dimensions },
    rerank: choiceOf(rerank),
    reader: { provider: reader.provider, jinaBaseURL: reader.jina.baseURL },
  });
}

/**
 * `config` with the services a run ran with, each choice (provider, base URL, model) replaced as
 * a whole so a stored vendor never meets today's base URL; keys, timeouts and everything else stay
 * today's. A path `keep` names (one set by a flag given now) keeps today's value.
 */
export function applyServiceSettings(
  config: DeepSearchConfig,
  services: ServiceSettings,
  keep: (path: string) => boolean = () => false,
): DeepSearchConfig {
  const pick = <T>(path: string, today: T, stored: T): T => (keep(path) ? today : stored);
  const choose = (path: string, today: ServiceChoice, stored: ServiceChoice | undefined): ServiceChoice => ({
    provider: pick(`${path}.provider`, today.provider, stored?.provider),
    baseURL: pick(`${path}.baseURL`, today.baseURL, stored?.baseURL),
    model: pick(`${path}.model`, today.model, stored?.model),
  });
  const roles = { ...config.llm.roles };
  for (const role of new Set([...Object.keys(roles), ...Object.keys(services.llm.roles)]) as Set<LlmRole>)
    roles[role] = {
      ...roles[role],
      ...choose(`llm.roles.${role}`, roles[role] ?? {}, services.llm.roles[role]),
    };
  const merged = {
    ...config,
    llm: {
      ...config.llm,
      ...choose('llm', config.llm, services.llm),
      structuredOutput: pick(
        'llm.structuredOutput',
        config.llm.structuredOutput,
        services.llm.structuredOutput,
      ),
      contextTokens: pick('llm.contextTokens', config.llm.contextTokens, services.llm.contextTokens),
      roles,
    },
    search: {
      ...config.search,
      searxngUrl: pick('search.searxngUrl', config.search.searxngUrl, services.search.searxngUrl),
      baseURLs: pick('search.baseURLs', config.search.baseURLs, services.search.baseURLs),
    },
    embedding: {
      ...config.embedding,
      ...choose('embedding', config.embedding, services.embedding),
      dimensions: pick('embedding.dimensions', config.embedding.dimensions, services.embedding.dimensions),
    },
    rerank: { ...config.rerank, ...choose('rerank', config.rerank, services.rerank) },
    reader: {
      ...config.reader,
      provider: pick('reader.provider', config.reader.provider, services.reader.provider),
      jina: { ...config.reader.jina, baseURL: services.reader.jinaBaseURL ?? config.reader.jina.baseURL },
    },
  };
  const parsed = configSchema.safeParse(plain(merged));
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0]!;
  throw new ConfigError(`the run's stored setting ${issue.path.join('.')} is not usable: ${issue.message}`, {
    cause: parsed.error,
  });
}

function choiceOf(settings: ServiceChoice): ServiceChoice {
  return { provider: settings.provider, baseURL: settings.baseURL, model: settings.model };
}

/** Without the keys whose value is undefined: what JSON keeps, and what the schema's defaults fill. */
function plain<T>(value: T): T {
  return JSON.parse(JSON.stringify(value)) as T;
}
