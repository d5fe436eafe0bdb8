import { type DeepSearchInput, runDeepSearch as runAgent } from '../agent/run-deep-search.js';
import type { DeepSearchResult } from '../events/agent-types.js';
import { sharedQuickJsCodeRunner } from '../providers/sandbox/quickjs-code-runner.js';

/**
 * The deep search loop on providers the caller built, without a runtime (the library's
 * `runDeepSearch`). The agent knows only the CodeRunner interface; here, as in the runtime, the
 * coding action's code runs in QuickJS in WebAssembly with config.sandbox's limits (loaded on the
 * first coding step) unless the input brings its own runner.
 */
export function runDeepSearch(input: DeepSearchInput): Promise<DeepSearchResult> {
  return runAgent({
    ...input,
    codeRunner: input.codeRunner ?? sharedQuickJsCodeRunner(input.config.sandbox),
  });
}
