import { commentKey } from '../../../config/load-config.js';

/** What `deepsearch init` learned, from flags, questions or a local server that answered. */
export interface InitAnswers {
  llmProvider?: string;
  llmBaseUrl?: string;
  llmModel?: string;
  searchProvider?: string;
  searxngUrl?: string;
}

const keyVariables: Readonly<Record<string, string>> = {
  openai: 'OPENAI_API_KEY',
  anthropic: 'ANTHROPIC_API_KEY',
  google: 'GEMINI_API_KEY',
  'openai-compatible': 'DEEPSEARCH_LLM_API_KEY (only if the server wants one)',
};

/**
 * The config file `init` writes: only what was chosen, each section with a "$comment" saying
 * what else it takes (the loader ignores those keys). Keys are never written: they belong in the
 * environment, where they do not end up in a repository.
 */
export function buildInitConfig(answers: InitAnswers): Record<string, unknown> {
  const provider = answers.llmProvider ?? (answers.llmBaseUrl ? 'openai-compatible' : undefined);
  const llm: Record<string, unknown> = {
    [commentKey]:
      'The LLM. A local or self-hosted server: provider "openai-compatible", baseURL ending in /v1 ' +
      '(Ollama http://localhost:11434/v1, LM Studio :1234/v1, llama.cpp :8080/v1, vLLM :8000/v1) and a model ' +
      'it serves. A vendor: provider "openai", "anthropic" or "google" (model optional). ' +
      `The key comes from the environment: ${provider ? (keyVariables[provider] ?? 'DEEPSEARCH_LLM_API_KEY') : 'OPENAI_API_KEY, ANTHROPIC_API_KEY or GEMINI_API_KEY'}. ` +
      'Also: temperature, maxOutputTokens, contextTokens, structuredOutput (auto | json-schema | prompt), ' +
      'timeoutSeconds, and roles.<agent|evaluator|analyzer|beast|rewriter> for per-role overrides.',
  };
  if (provider) llm.provider = provider;
  if (answers.llmBaseUrl) llm.baseURL = answers.llmBaseUrl;
  if (answers.llmModel) llm.model = answers.llmModel;
  const search: Record<string, unknown> = {
    [commentKey]:
      'Web search. provider "auto" uses SearXNG when searxngUrl is set, else DuckDuckGo (no key). ' +
      'Others: searxng, duckduckgo, brave, serper, tavily, jina, exa (keys from BRAVE_API_KEY, ' +
      'SERPER_API_KEY...), or a fallback chain "searxng,duckduckgo". SearXNG needs "json" in ' +
      'search.formats of its settings.yml.',
    provider: answers.searchProvider ?? 'auto',
  };
  if (answers.searxngUrl) search.searxngUrl = answers.searxngUrl;
  return {
    [commentKey]:
      'deepsearch configuration, written by deepsearch init. Command-line flags and environment variables ' +
      'override what is here; deepsearch doctor checks it. Every setting: deepsearch help settings.',
    llm,
    search,
    cache: {
      [commentKey]:
        "Search results and pages are kept in a SQLite file in the user's data directory; " +
        'dir moves it, enabled false turns it off.',
      enabled: true,
    },
  };
}

/** Two-space JSON and a final newline, like the files people write by hand. */
export function renderConfigFile(config: Record<string, unknown>): string {
  return `${JSON.stringify(config, null, 2)}\n`;
}
