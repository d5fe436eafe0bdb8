import { join } from 'node:path';
import { readConfigFile } from '../../config/config-file.js';
import type { DeepSearchConfig } from '../../config/config-schema.js';
import { configSecrets } from '../../config/config-secrets.js';
import { loadConfig } from '../../config/load-config.js';
import { defaultKnowledgeFile } from '../../knowledge/knowledge-file.js';
import { runsFileName } from '../../runs/run-store-schema.js';
import { defaultCacheDir } from '../../runtime/create-provider-cache.js';
import type { CliIo } from '../io/cli-io.js';

/** Flags > env > config file (--config, DEEPSEARCH_CONFIG, ./deepsearch.config.json) > defaults. */
export function loadCliConfig(
  io: CliIo,
  flags: Record<string, unknown>,
  configPath: string | undefined,
): DeepSearchConfig {
  const file = readConfigFile({ path: configPath ?? io.env.DEEPSEARCH_CONFIG, cwd: io.cwd });
  const config = loadConfig({ env: io.env, flags, file: file?.file, fileName: file?.fileName });
  // The data directory follows XDG_DATA_HOME / LOCALAPPDATA, which only an entry point may read.
  if (config.cache.enabled && !config.cache.dir) config.cache.dir = defaultCacheDir({ env: io.env });
  io.addSecrets?.(configSecrets(config));
  config.knowledge.file ??= defaultKnowledgeFile(defaultCacheDir({ env: io.env }));
  if (config.runs.enabled) config.runs.file ??= join(defaultCacheDir({ env: io.env }), runsFileName);
  config.llm.embedded.modelsDir ??= join(defaultCacheDir({ env: io.env }), 'models');
  return config;
}
