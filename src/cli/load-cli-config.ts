import { readConfigFile } from '../config/config-file.js';
import type { DeepSearchConfig } from '../config/config-schema.js';
import { loadConfig } from '../config/load-config.js';
import type { CliIo } from './cli-io.js';

/** Flags > env > config file (--config, DEEPSEARCH_CONFIG, ./deepsearch.config.json) > defaults. */
export function loadCliConfig(
  io: CliIo,
  flags: Record<string, unknown>,
  configPath: string | undefined,
): DeepSearchConfig {
  const file = readConfigFile({ path: configPath ?? io.env.DEEPSEARCH_CONFIG, cwd: io.cwd });
  return loadConfig({ env: io.env, flags, file: file?.file, fileName: file?.fileName });
}
