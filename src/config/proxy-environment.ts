import { proxyVariables } from './setting-sources.js';

export interface EnvAssignment {
  path: string;
  value: string;
  /** The variable that set it. */
  origin: string;
}

/**
 * The proxy settings the environment gives. Unlike the DEEPSEARCH_ variables, a variable that is
 * set but empty counts: `NO_PROXY=` means no host bypasses the proxy (the default list is for an
 * unset variable), `HTTPS_PROXY=` means no proxy. loadConfig applies these below the config file,
 * since they are the whole machine's settings and deepsearch's own should win over them.
 */
export function proxyEnvironment(env: Readonly<Record<string, string | undefined>>): EnvAssignment[] {
  const assignments: EnvAssignment[] = [];
  for (const [path, names] of Object.entries(proxyVariables())) {
    const name = names.find((candidate) => env[candidate] !== undefined);
    if (name) assignments.push({ path, value: env[name]!, origin: name });
  }
  return assignments;
}
