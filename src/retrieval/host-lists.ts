/** Host lists from the config: boost (rank higher), bad (never used), only (nothing else used). */
export interface HostLists {
  boost?: readonly string[];
  bad?: readonly string[];
  only?: readonly string[];
}

export interface HostFilter {
  /** Not on the bad list, and on the only list when there is one. */
  allowed(host: string): boolean;
  boosted(host: string): boolean;
}

/** True when `host` is `listed` or one of its subdomains ("en.wikipedia.org" is in "wikipedia.org"). */
export function hostMatches(host: string, listed: string): boolean {
  const wanted = cleanHost(listed);
  const actual = cleanHost(host);
  return actual === wanted || actual.endsWith(`.${wanted}`);
}

/**
 * Verdicts for many hosts: the lists are cleaned once and each host's verdicts cached, since
 * ranking meets the same few hundred hosts thousands of times.
 */
export function createHostFilter(lists: HostLists): HostFilter {
  const clean = (list: readonly string[] | undefined) => (list ?? []).map(cleanHost);
  const bad = clean(lists.bad);
  const only = clean(lists.only);
  const boost = clean(lists.boost);
  const cache = new Map<string, { allowed: boolean; boosted: boolean }>();
  const inList = (host: string, list: string[]) =>
    list.some((wanted) => host === wanted || host.endsWith(`.${wanted}`));
  const verdict = (host: string) => {
    let found = cache.get(host);
    if (!found) {
      const actual = cleanHost(host);
      found = {
        allowed: !inList(actual, bad) && (only.length === 0 || inList(actual, only)),
        boosted: inList(actual, boost),
      };
      cache.set(host, found);
    }
    return found;
  };
  return { allowed: (host) => verdict(host).allowed, boosted: (host) => verdict(host).boosted };
}

const plainHost = /^[a-z0-9.-]+$/;

function cleanHost(host: string): string {
  if (plainHost.test(host) && !host.startsWith('www.') && !host.endsWith('.')) return host;
  return host
    .trim()
    .toLowerCase()
    .replace(/^[a-z]+:\/\//, '')
    .replace(/[/:].*$/, '')
    .replace(/^www\./, '')
    .replace(/\.$/, '');
}
