import type { CodeRunRequest, CodeRunResult } from '../../sandbox/code-run.js';

export * from '../../sandbox/code-run.js';

/**
 * Runs untrusted JavaScript (written by the model) away from the agent's process: no network,
 * environment, filesystem or host objects, and limits on time, memory, stack and output. A failure
 * of the code is a result, never a throw; `run` throws only for a fault of the caller (input that
 * is not JSON).
 */
export interface CodeRunner {
  /** The version of this interface the runner implements (see check-provider.ts). */
  readonly specificationVersion: 'v1';
  readonly id: string;
  run(request: CodeRunRequest): Promise<CodeRunResult>;
}
