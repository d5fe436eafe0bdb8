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
  {
    env: 'DEEPSEARCH_TRACE_CONTENT',
    description:
      'with OpenTelemetry tracing on (OTEL_EXPORTER_OTLP_ENDPOINT), also put questions and search queries on spans',
  },
];
