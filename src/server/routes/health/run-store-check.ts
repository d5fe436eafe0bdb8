import { ServiceUnavailableError } from '../../../core/errors/index.js';
import type { DeepSearchRuntime } from '../../../runtime/create-runtime.js';
import { sqliteRunStore } from '../../../scale/backing-services.js';

/**
 * /ready's check on one machine: the run store answers a read (it opens its file on first use, so
 * a path that cannot be opened fails here, and passes again once it can). Undefined when runs are
 * not recorded: nothing to check.
 */
export function runStoreCheck(
  runtime: Pick<DeepSearchRuntime, 'runs' | 'config'>,
): (() => Promise<ServiceUnavailableError | undefined>) | undefined {
  const { runs } = runtime;
  const file = runtime.config.runs.file;
  if (!runs || !file) return undefined;
  return async () => {
    try {
      runs.get('ready-probe');
      return undefined;
    } catch (error) {
      return new ServiceUnavailableError({ service: sqliteRunStore(file), cause: error });
    }
  };
}
