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
export type { DeepSearchInput } from './agent/run-deep-search.js';
export { type AnswerSchema, parseAnswerSchema } from './agent/structured-answer.js';
export {
  budgetPresets,
  type ConfigOverrides,
  type DeepSearchConfig,
  type DeepSearchConfigInput,
  defaultConfigFileName,
  deriveConfig,
  type LoadConfigOptions,
  loadConfig,
  type ReasoningEffort,
  readConfigFile,
  redactConfig,
} from './config/index.js';
export {
  type DeepSearchOptions,
  type DeepSearchRun,
  deepSearch,
  type RunOptions,
} from './deep-search.js';
export * from './errors/index.js';
export { createLlmClient } from './providers/llm/create-llm-client.js';
export {
  createQuickJsCodeRunner,
  type QuickJsCodeRunnerSettings,
} from './providers/sandbox/quickjs-code-runner.js';
export type * from './providers/spec/index.js';
export { parsePlanMarkdown, renderPlanMarkdown } from './research/plan/plan-markdown.js';
export type * from './research/research-types.js';
export { type ResearchRun, type ResearchRunOptions, research } from './research.js';
export { runDeepSearch } from './run-deep-search.js';
export type { RunHandle } from './run-handle.js';
export { type AskOptions, createRuntime, type DeepSearchRuntime, type RuntimeOptions } from './runtime.js';
export { createServerApp, type ServerAppOptions } from './server/server-app.js';
export { type RunningServer, type StartServerOptions, startServer } from './server/start-server.js';
