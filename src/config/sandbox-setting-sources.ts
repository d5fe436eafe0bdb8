import type { SettingSource } from './setting-sources.js';

/** The coding action and the limits of its sandbox. */
export const sandboxSettingSources: readonly SettingSource[] = [
  {
    path: 'sandbox.enabled',
    env: 'DEEPSEARCH_NO_CODING',
    flag: 'no-coding',
    type: 'boolean',
    negate: true,
    description: 'never offer the coding action (JavaScript the model writes, run in a sandbox)',
  },
  {
    path: 'sandbox.timeoutSeconds',
    env: 'DEEPSEARCH_SANDBOX_TIMEOUT',
    flag: 'sandbox-timeout',
    type: 'number',
    description: 'CPU seconds one run of the coding action may take (default 3)',
  },
  {
    path: 'sandbox.memoryMb',
    env: 'DEEPSEARCH_SANDBOX_MEMORY_MB',
    flag: 'sandbox-memory-mb',
    type: 'integer',
    description: 'memory of one coding run in MB, strings and buffers included (default 64)',
  },
  {
    path: 'sandbox.stackKb',
    env: 'DEEPSEARCH_SANDBOX_STACK_KB',
    type: 'integer',
    description: 'stack of one coding run in KB; deeper recursion fails (default 64)',
  },
  {
    path: 'sandbox.maxOutputChars',
    env: 'DEEPSEARCH_SANDBOX_MAX_OUTPUT',
    type: 'integer',
    description: 'largest result of a coding run, in JSON characters (default 20000)',
  },
  {
    path: 'sandbox.maxLogChars',
    env: 'DEEPSEARCH_SANDBOX_MAX_LOGS',
    type: 'integer',
    description: 'console.log output kept per coding run, in characters (default 4000)',
  },
  {
    path: 'sandbox.maxInputChars',
    env: 'DEEPSEARCH_SANDBOX_MAX_INPUT',
    type: 'integer',
    description: 'gathered knowledge given to the code as input, in JSON characters (default 60000)',
  },
  {
    path: 'sandbox.concurrency',
    env: 'DEEPSEARCH_SANDBOX_CONCURRENCY',
    type: 'integer',
    description: 'sandbox processes running code at once, 1 to 4; more runs wait (default 1)',
  },
];
