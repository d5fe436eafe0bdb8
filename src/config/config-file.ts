import { existsSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { ConfigError } from '../core/errors/index.js';

export const defaultConfigFileName = 'deepsearch.config.json';

export interface ConfigFile {
  fileName: string;
  file: unknown;
}

/**
 * Reads the config file named by --config or DEEPSEARCH_CONFIG, else ./deepsearch.config.json when
 * present. An explicitly named file that does not exist is an error; the default one is optional.
 */
export function readConfigFile(options: { path?: string; cwd: string }): ConfigFile | undefined {
  const explicit = options.path !== undefined && options.path !== '';
  const fileName = resolve(options.cwd, explicit ? options.path! : defaultConfigFileName);
  if (!existsSync(fileName)) {
    if (explicit)
      throw new ConfigError(`config file not found: ${fileName}`, { code: 'config_file_missing' });
    return undefined;
  }
  let text: string;
  try {
    text = readFileSync(fileName, 'utf8');
  } catch (cause) {
    throw new ConfigError(`cannot read config file ${fileName}`, { cause });
  }
  try {
    return { fileName, file: JSON.parse(text) };
  } catch (cause) {
    throw new ConfigError(`config file ${fileName} is not valid JSON: ${(cause as Error).message}`, {
      cause,
    });
  }
}
