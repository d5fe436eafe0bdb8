import { join } from 'node:path';
import { readConfigFile } from '../../config/config-file.js';
import type { DeepSearchConfig } from '../../config/config-schema.js';
import { configSecrets } from '../../config/config-secrets.js';
import { type CommandValue, loadConfig } from '../../config/load-config.js';
import { defaultKnowledgeFile } from '../../knowledge/knowledge-file.js';
import { runsFileName } from '../../runs/run-store-schema.js';
import { defaultCacheDir } from '../../runtime/create-provider-cache.js';
import type { CliIo } from '../io/cli-io.js';

/** Flags > env > config file (--config, DEEPSEARCH_CONFIG, ./deepsearch.config.json) > defaults. */
export function loadCliConfig(
  io: CliIo,
  flags: Record<string, unknown>,
  configPath: string | undefined,
  commandValues: readonly CommandValue[] = [],
): DeepSearchConfig {
  const file = readConfigFile({ path: configPath ?? io.env.DEEPSEARCH_CONFIG, cwd: io.cwd });
  const config = loadConfig({
    env: io.env,
    flags,
    file: file?.file,
    fileName: file?.fileName,
    commandValues,
    fallbacks: (loaded) => dataDirectoryFallbacks(loaded, io.env),
  });
  io.addSecrets?.(configSecrets(config));
  return config;
}

/** The data directory follows XDG_DATA_HOME / LOCALAPPDATA, which only an entry point may read. */
function dataDirectoryFallbacks(
  config: DeepSearchConfig,
  env: CliIo['env'],
): Readonly<Record<string, unknown>> {
  const dir = defaultCacheDir({ env });
  return {
    ...(config.cache.enabled ? { 'cache.dir': dir } : {}),
    'knowledge.file': defaultKnowledgeFile(dir),
    ...(config.runs.enabled ? { 'runs.file': join(dir, runsFileName) } : {}),
    'llm.embedded.modelsDir': join(dir, 'models'),
  };
}
