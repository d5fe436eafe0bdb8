import { ConfigError } from '../../core/errors/index.js';

/**
 * A setting a provider needs, read when a call is made (never at start-up), with an error that
 * names the variable to set.
 */
export function requireSetting(value: string | undefined, message: string): string {
  if (value) return value;
  throw new ConfigError(message, { code: 'config_missing_setting' });
}

/** Joins a base URL and a path, keeping any path prefix of the base and ignoring a trailing slash. */
export function joinUrl(baseURL: string, path: string): string {
  return `${baseURL.replace(/\/+$/, '')}/${path.replace(/^\/+/, '')}`;
}
