export { renderAnswerMarkdown } from './agent/citations/format-footnotes.js';
export { type AnswerSchema, parseAnswerSchema } from './agent/structured-answer.js';
export {
  type DeepSearchOptions,
  type DeepSearchRun,
  deepSearch,
  type RunOptions,
} from './api/deep-search.js';
export { type ResearchRun, type ResearchRunOptions, research } from './api/research.js';
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
// The errors a caller tells apart; the redaction and retry helpers stay internal.
export {
  AbortedError,
  AuthenticationError,
  BlockedUrlError,
  ConfigError,
  DeepSearchError,
  type DeepSearchErrorOptions,
  type ErrorCode,
  errorCodes,
  InputError,
  isAbortError,
  isAuthenticationError,
  isBlockedUrlError,
  isConfigError,
  isDeepSearchError,
  isInputError,
  isProviderError,
  isStructuredOutputError,
  ProviderError,
  type ProviderErrorOptions,
  type Redactor,
  StructuredOutputError,
} from './core/errors/index.js';
export type { AgentEvent, AgentEventListener, AgentEventType } from './events/agent-events.js';
export type {
  AnswerOrigin,
  BudgetReport,
  Confidence,
  DeepSearchResult,
  Reference,
  TimingReport,
  UsageReport,
} from './events/deep-search-result.js';
export type * from './events/research-result.js';
export type { RunHandle } from './events/run-handle.js';
export {
  createQuickJsCodeRunner,
  type QuickJsCodeRunnerSettings,
} from './providers/code-runner/quickjs-code-runner.js';
export { createLlmClient } from './providers/llm/create-llm-client.js';
export type * from './providers/spec/index.js';
export { parsePlanMarkdown, renderPlanMarkdown } from './research/plan/plan-markdown.js';
export {
  type AskOptions,
  createRuntime,
  type DeepSearchRuntime,
  type ResearchOptions,
  type ResumeOptions,
  type RunOutcome,
  type RunRequest,
  type RuntimeOptions,
} from './runtime/create-runtime.js';
// The server is its own entry (deepsearch/server), the providers' kit too (deepsearch/providers).
