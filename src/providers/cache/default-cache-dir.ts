import { homedir } from 'node:os';
import { join } from 'node:path';

export interface DefaultCacheDirOptions {
  /** Environment of an entry point (XDG_DATA_HOME, LOCALAPPDATA); nothing else reads it. */
  env?: Readonly<Record<string, string | undefined>>;
  platform?: NodeJS.Platform;
  home?: string;
}

export const cacheFileName = 'cache.sqlite';

/**
 * The user's data directory for deepsearch: $XDG_DATA_HOME/deepsearch or ~/.local/share/deepsearch
 * on Linux, ~/Library/Application Support/deepsearch on macOS, %LOCALAPPDATA%\deepsearch on Windows.
 */
export function defaultCacheDir(options: DefaultCacheDirOptions = {}): string {
  const env = options.env ?? {};
  const platform = options.platform ?? process.platform;
  const home = options.home ?? homedir();
  if (platform === 'win32') return join(env.LOCALAPPDATA || join(home, 'AppData', 'Local'), 'deepsearch');
  if (platform === 'darwin') return join(home, 'Library', 'Application Support', 'deepsearch');
  return join(env.XDG_DATA_HOME || join(home, '.local', 'share'), 'deepsearch');
}
