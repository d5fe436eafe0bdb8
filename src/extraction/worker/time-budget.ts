import vm from 'node:vm';

/**
 * Runs a synchronous function with a deadline V8 enforces: past `budgetMs` its execution is
 * terminated wherever it is (a parser's loop included; a catch inside cannot keep it going) and
 * this throws (isTimeBudgetExceeded). vm's timeout is the one way to stop synchronous code in this
 * process; the function still runs in this process's realm, with its modules.
 */
export function runWithinTimeBudget<T>(task: () => T, budgetMs: number): T {
  let result: { value: T } | undefined;
  sandbox ??= { script: new vm.Script('run()'), context: vm.createContext({}) };
  const { script, context } = sandbox;
  context.run = () => {
    result = { value: task() };
  };
  try {
    script.runInContext(context, { timeout: Math.max(1, Math.round(budgetMs)) });
  } finally {
    context.run = undefined;
  }
  if (!result) throw new Error('the task returned nothing');
  return result.value;
}

/** The error runWithinTimeBudget throws when the budget ran out. */
export function isTimeBudgetExceeded(error: unknown): boolean {
  return (error as { code?: unknown } | null)?.code === 'ERR_SCRIPT_EXECUTION_TIMEOUT';
}

/** The script that calls the task, and the context it runs in: made on first use, then reused. */
let sandbox: { script: vm.Script; context: { run?: () => void } } | undefined;
