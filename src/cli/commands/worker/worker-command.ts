import { type Command, InvalidArgumentError } from 'commander';
import { configFlag } from '../../flags/config-flag.js';
import { addExamples, addSettingFlags, collectSettingFlags } from '../../flags/setting-flags.js';
import type { CliIo } from '../../io/cli-io.js';

/** Registers `deepsearch worker`; the queue, the stores and the runtime load only when it runs. */
export function addWorkerCommand(program: Command, io: CliIo): void {
  const worker = addSettingFlags(
    program
      .command('worker')
      .description(
        'queue mode: run deep searches and research jobs posted to any `deepsearch serve` node (needs DEEPSEARCH_REDIS_URL and DEEPSEARCH_DATABASE_URL) until SIGTERM or Ctrl-C',
      )
      .option('--concurrency <n>', 'jobs run at once by this worker', positiveInteger, 8)
      .option(
        '--health-port <n>',
        'answer GET /health on this port (at DEEPSEARCH_HOST): 200 while taking jobs, 503 once stopping',
        port,
      )
      .option('--metrics-port <n>', 'answer GET /metrics (Prometheus) on this port at DEEPSEARCH_HOST', port)
      .option(
        '--log-format <format>',
        'text | json: the log (a line per job and per Redis/Postgres change, on stdout) as text or JSON lines (DEEPSEARCH_LOG_FORMAT)',
        logFormat,
      )
      .addOption(configFlag()),
    { scope: 'mcp' },
  );
  addExamples(worker, [
    'DEEPSEARCH_REDIS_URL=redis://127.0.0.1:6379 DEEPSEARCH_DATABASE_URL=postgres://deepsearch@127.0.0.1/deepsearch deepsearch worker --concurrency 20',
  ]);
  worker.action(
    async (options: {
      config?: string;
      concurrency: number;
      healthPort?: number;
      metricsPort?: number;
      logFormat?: 'text' | 'json';
    }) => {
      const { runWorkerCommand } = await import('./run-worker-command.js');
      await runWorkerCommand(io, {
        flags: collectSettingFlags(worker),
        configPath: options.config,
        concurrency: options.concurrency,
        healthPort: options.healthPort,
        logFormat: options.logFormat,
        metricsPort: options.metricsPort,
      });
    },
  );
}

function logFormat(raw: string): 'text' | 'json' {
  if (raw === 'text' || raw === 'json') return raw;
  throw new InvalidArgumentError(`expected text or json (got "${raw}")`);
}

function positiveInteger(raw: string): number {
  const value = Number(raw);
  if (!/^\d+$/.test(raw.trim()) || value < 1 || value > 1000)
    throw new InvalidArgumentError(`expected a whole number from 1 to 1000 (got "${raw}")`);
  return value;
}

function port(raw: string): number {
  const value = Number(raw);
  if (!/^\d+$/.test(raw.trim()) || value > 65_535)
    throw new InvalidArgumentError(`expected a port from 0 to 65535 (got "${raw}")`);
  return value;
}
