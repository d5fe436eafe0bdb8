import type { DeepSearchConfig } from '../../config/config-schema.js';
import { configSecrets } from '../../config/config-secrets.js';
import { createRedactor, isServiceUnavailableError } from '../../core/errors/index.js';
import type { JobEvent } from '../../scale/job-events.js';
import type { ServiceChange } from '../../scale/service-monitor.js';
import type { CliIo } from '../io/cli-io.js';
import { type CollapsedWarnings, createCollapsedWarnings } from './collapsed-warnings.js';
import { createProcessLogger, type LogFormat, type ProcessLogger } from './process-logger.js';

/** What `serve` and `worker` log, each kind of line in one place. */
export interface ProcessLog {
  logger: ProcessLogger;
  /** A background warning; identical ones are collapsed (the first, then a count a minute). */
  warn(error: Error): void;
  serviceChange(change: ServiceChange): void;
  /** The server's access log line (JSON: server/middleware/access-log.ts), as a `request` line. */
  request(line: string): void;
  job(event: JobEvent): void;
  /** Writes the warning counts still held. */
  close(): void;
}

/**
 * The process log on stdout (start and stop messages for a person stay on stderr), in the
 * configured format (`--log-format`, DEEPSEARCH_LOG_FORMAT), the config's secrets redacted.
 */
export function createProcessLog(
  io: CliIo,
  config: DeepSearchConfig,
  options: { role: 'serve' | 'worker'; format?: LogFormat },
): ProcessLog {
  const logger = createProcessLogger({
    format: options.format ?? config.server.logFormat,
    write: (line) => io.stdout.write(line),
    redact: createRedactor(configSecrets(config)),
    role: options.role,
  });
  const warnings: CollapsedWarnings = createCollapsedWarnings({
    write: (message) => logger.warn({ event: 'warning' }, message),
  });
  return {
    logger,
    // A service away is logged when it goes down and comes back (serviceChange), not per failure.
    warn: (error) => {
      if (!isServiceUnavailableError(error)) warnings.warn(error.message);
    },
    serviceChange(change) {
      const fields = { event: `service-${change.state}`, service: change.service.id };
      if (change.state === 'down') logger.warn(fields, change.message);
      else logger.info(fields, change.message);
    },
    request(line) {
      let record: Record<string, unknown>;
      try {
        record = JSON.parse(line) as Record<string, unknown>;
      } catch {
        logger.info({ event: 'request' }, line);
        return;
      }
      const { time: _time, ...fields } = record;
      const status = typeof fields.status === 'number' ? fields.status : 0;
      const level = status >= 500 ? 'warn' : 'info';
      logger[level](
        { event: 'request', ...fields },
        `${fields.method ?? ''} ${fields.path ?? ''} ${status || ''}`.trim(),
      );
    },
    job(event) {
      const { event: name, ...fields } = event;
      const level = name === 'job-failed' || name === 'job-lost' ? 'warn' : 'info';
      logger[level]({ event: name, ...fields }, name.replace('job-', 'job '));
    },
    close: () => warnings.stop(),
  };
}
