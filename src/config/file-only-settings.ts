/**
 * Settings that only the config file sets (no variable, no flag), with what each does. The
 * settings reference lists them beside the table in setting-sources.ts; a test fails when the
 * config schema has a key that neither describes, so a new setting cannot go undocumented.
 */
export const fileOnlySettings: Readonly<Record<string, string>> = {
  'llm.roles': 'per-role overrides, e.g. { "evaluator": { "model": "qwen2.5:7b", "temperature": 0 } }',
  'search.apiKeys': 'search keys by provider id (the variables BRAVE_API_KEY... are the usual way)',
  'search.baseURLs':
    'another endpoint per search provider (a proxy, a gateway), e.g. { "brave": "https://..." }',
  'search.providerConcurrency':
    'searches in flight per provider, e.g. { "searxng": 8 } (DuckDuckGo defaults to 1)',
  'search.timeoutSeconds': 'seconds before one search call is abandoned',
  'reader.maxRedirects': 'redirects followed per page',
  'reader.userAgent': 'the User-Agent header of page fetches (default: a browser-like one naming deepsearch)',
  'reader.jina.baseURL': 'another Jina Reader endpoint',
  'knowledge.merge': 'merge knowledge base hits into every web search step (as --kb does)',
  'agent.maxQueriesPerStep': 'search queries one step may run',
  'agent.maxUrlsPerStep': 'pages one visit step may read',
  'embedding.batchSize': 'texts per embedding request',
  'embedding.lateChunking': "Jina: embed a page's chunks with late chunking",
  'embedding.timeoutSeconds': 'seconds before one embedding call is abandoned',
  'embedding.maxRetries': 'retries of an embedding call on 408/409/429/5xx and network errors',
  'rerank.batchSize': 'documents per rerank request',
  'rerank.timeoutSeconds': 'seconds before one rerank call is abandoned',
  'rerank.maxRetries': 'retries of a rerank call on 408/409/429/5xx and network errors',
  'retrieval.perHostCap': 'unread URLs of one host shown to the agent per step',
  'retrieval.rerankCandidates': 'best-ranked URLs sent to the reranker per step',
  'runs.prices':
    'US dollars per million tokens by model id: { "gpt-4.1-mini": { "inputPerMillion": 0.4, "outputPerMillion": 1.6 } }',
};

/** Variables read by the CLI only, outside the config (they choose how the config is found or loaded). */
export const cliOnlyVariables: ReadonlyArray<{ env: string; description: string }> = [
  {
    env: 'DEEPSEARCH_CONFIG',
    description: 'the config file (default ./deepsearch.config.json; flag --config)',
  },
  {
    env: 'DEEPSEARCH_LOCAL_LLM_URLS',
    description:
      'local LLM servers to look for when no LLM is set (ollama=http://host:11434,openai=http://host:8000), or off',
  },
  { env: 'DEEPSEARCH_SQLITE_MODULE', description: 'a path to another better-sqlite3 build to load' },
];
