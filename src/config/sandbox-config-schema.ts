import * as z from 'zod';
import { setting } from './setting.js';

/**
 * The coding action's sandbox (QuickJS compiled to WebAssembly): the limits of one run of the
 * model's JavaScript, and how much gathered knowledge it gets as input.
 */
export const sandboxConfigSchema = z
  .object({
    enabled: setting(z.boolean().default(true), {
      env: 'DEEPSEARCH_NO_CODING',
      flag: 'no-coding',
      negate: true,
      description: 'never offer the coding action (JavaScript the model writes, run in a sandbox)',
    }),
    // Past it (plus a margin) the sandbox process is killed.
    timeoutSeconds: setting(z.number().positive().max(60).default(3), {
      env: 'DEEPSEARCH_SANDBOX_TIMEOUT',
      flag: 'sandbox-timeout',
      description: 'CPU seconds one run of the coding action may take',
    }),
    memoryMb: setting(z.number().int().min(1).max(1024).default(64), {
      env: 'DEEPSEARCH_SANDBOX_MEMORY_MB',
      flag: 'sandbox-memory-mb',
      description: 'memory of one coding run in MB, strings and buffers included',
    }),
    // Above about 256 KB the host thread's stack may run out first; that is caught too.
    stackKb: setting(z.number().int().min(16).max(1024).default(64), {
      env: 'DEEPSEARCH_SANDBOX_STACK_KB',
      description: 'stack of one coding run in KB; deeper recursion fails',
    }),
    maxOutputChars: setting(z.number().int().min(100).max(1_000_000).default(20_000), {
      env: 'DEEPSEARCH_SANDBOX_MAX_OUTPUT',
      description: 'largest result of a coding run, in JSON characters',
    }),
    maxLogChars: setting(z.number().int().min(0).max(100_000).default(4000), {
      env: 'DEEPSEARCH_SANDBOX_MAX_LOGS',
      description: 'console.log output kept per coding run, in characters',
    }),
    // Sub-answers, page snippets and tables.
    maxInputChars: setting(z.number().int().min(1000).max(1_000_000).default(60_000), {
      env: 'DEEPSEARCH_SANDBOX_MAX_INPUT',
      description: 'gathered knowledge given to the code as input, in JSON characters',
    }),
    concurrency: setting(z.number().int().min(1).max(4).default(1), {
      env: 'DEEPSEARCH_SANDBOX_CONCURRENCY',
      description: 'sandbox processes running code at once, 1 to 4; more runs wait',
    }),
  })
  .strict();
