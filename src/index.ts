export type { AgentEvent, AgentEventListener, AgentEventType } from './agent/agent-events.js';
export type {
  AnswerOrigin,
  BudgetReport,
  Confidence,
  DeepSearchResult,
  Reference,
  TimingReport,
  UsageReport,
} from './agent/agent-types.js';
export { renderAnswerMarkdown } from './agent/citations/format-footnotes.js';
export { type DeepSearchInput, runDeepSearch } from './agent/run-deep-search.js';
export {
  type DeepSearchConfig,
  type DeepSearchConfigInput,
  defaultConfigFileName,
  type LoadConfigOptions,
  loadConfig,
  readConfigFile,
  redactConfig,
} from './config/index.js';
export * from './errors/index.js';
export { createLlmClient } from './providers/llm/create-llm-client.js';
export type * from './providers/spec/index.js';
export { type AskOptions, createRuntime, type DeepSearchRuntime, type RuntimeOptions } from './runtime.js';
