import { readFileSync } from 'node:fs';

/**
 * The version in package.json, read on use: dist/cli and src/cli both sit two folders below it, in
 * the repository and in an installed package alike.
 */
export function packageVersion(): string {
  try {
    const text = readFileSync(new URL('../../package.json', import.meta.url), 'utf8');
    const version = (JSON.parse(text) as { version?: unknown }).version;
    return typeof version === 'string' ? version : 'unknown';
  } catch {
    return 'unknown';
  }
}
