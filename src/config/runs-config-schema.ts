import * as z from 'zod';
import { setting } from './setting.js';

/** Price of a model's tokens, in US dollars per million, to price a run's calls. */
export const modelPriceSchema = z
  .object({ inputPerMillion: z.number().min(0), outputPerMillion: z.number().min(0) })
  .strict();

/** The run store: every run's question, events, checkpoints and result (`deepsearch runs`, resume, async API). */
export const runsConfigSchema = z
  .object({
    enabled: setting(z.boolean().default(true), {
      env: 'DEEPSEARCH_NO_RUNS',
      flag: 'no-runs',
      negate: true,
      description: 'record no run in the run store (no history, replay or resume)',
    }),
    // Unset: the CLI gives runs.sqlite in the user's data directory.
    file: setting(z.string().min(1).optional(), {
      env: 'DEEPSEARCH_RUNS_FILE',
      flag: 'runs-file',
      description: "run store database file (default: runs.sqlite in the user's data directory)",
    }),
    retention: z
      .object({
        maxRuns: setting(z.number().int().min(1).default(500), {
          env: 'DEEPSEARCH_RUNS_MAX',
          description: 'finished runs kept in the run store; the oldest go first',
        }),
        maxAgeDays: setting(z.number().min(0).default(90), {
          env: 'DEEPSEARCH_RUNS_MAX_AGE_DAYS',
          description: 'finished runs older than this many days are deleted',
        }),
      })
      .strict()
      .default({ maxRuns: 500, maxAgeDays: 90 }),
    // A run's cost is null when one of its models has no price.
    prices: setting(z.record(z.string(), modelPriceSchema).default({}), {
      description:
        'US dollars per million tokens by model id: { "gpt-4.1-mini": { "inputPerMillion": 0.4, "outputPerMillion": 1.6 } }',
    }),
  })
  .strict();
