import type { SettingSource } from './setting-sources.js';

/**
 * The flags of the network settings. The proxy variables are not in this table: they are read by
 * proxyEnvironment below, with their own rules.
 */
export const networkSettingSources: readonly SettingSource[] = [
  {
    path: 'network.proxy',
    flag: 'proxy',
    type: 'string',
    secret: true,
    description:
      "proxy for every outbound request, e.g. http://user:pass@proxy.corp:3128, or 'none' (overrides HTTPS_PROXY/HTTP_PROXY)",
  },
  {
    path: 'network.noProxy',
    flag: 'proxy-bypass',
    type: 'list',
    description:
      'comma-separated hosts reached without the proxy: names, .domains, *, host:port, CIDR (overrides NO_PROXY)',
  },
];

/** Each proxy setting's variables, in the order they are read: the lower-case name wins, as in curl and undici. */
export const proxyVariables = {
  'network.httpsProxy': ['https_proxy', 'HTTPS_PROXY'],
  'network.httpProxy': ['http_proxy', 'HTTP_PROXY'],
  'network.noProxy': ['no_proxy', 'NO_PROXY'],
} as const;

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
  for (const [path, names] of Object.entries(proxyVariables)) {
    const name = names.find((candidate) => env[candidate] !== undefined);
    if (name) assignments.push({ path, value: env[name]!, origin: name });
  }
  return assignments;
}
