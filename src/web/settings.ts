/** What the settings dialog keeps in localStorage; each field maps to one request option. */
export interface PageSettings {
  effort: '' | 'low' | 'medium' | 'high';
  searchProvider: string;
  onlyHosts: string;
  badHosts: string;
  language: string;
}

export const defaultSettings: PageSettings = {
  effort: '',
  searchProvider: '',
  onlyHosts: '',
  badHosts: '',
  language: '',
};

/** "a.com, b.org\nhttps://c.net/x" → ["a.com", "b.org", "c.net"]: users paste URLs too. */
export function parseHostList(text: string): string[] {
  const hosts = text
    .split(/[\s,;]+/)
    .map((item) => item.trim().toLowerCase())
    .filter(Boolean)
    .map((item) => {
      try {
        return item.includes('://') ? new URL(item).hostname : item.replace(/\/.*$/, '');
      } catch {
        return item;
      }
    });
  return [...new Set(hosts)];
}

/** The POST /v1/research options for these settings; empty settings send nothing (server defaults). */
export function toRequestOptions(settings: PageSettings): Record<string, unknown> {
  const only = parseHostList(settings.onlyHosts);
  const bad = parseHostList(settings.badHosts);
  return {
    ...(settings.effort ? { reasoning_effort: settings.effort } : {}),
    ...(settings.searchProvider.trim() ? { search_provider: settings.searchProvider.trim() } : {}),
    ...(only.length ? { only_hostnames: only } : {}),
    ...(bad.length ? { bad_hostnames: bad } : {}),
    ...(settings.language.trim() ? { language: settings.language.trim() } : {}),
  };
}

/** The options POST /v1/research takes (it refuses any other field). */
const runOptionNames = new Set([
  'reasoning_effort',
  'budget_tokens',
  'max_steps',
  'max_attempts',
  'no_direct_answer',
  'boost_hostnames',
  'bad_hostnames',
  'only_hostnames',
  'search_provider',
  'language',
]);

/**
 * A stored run's options as a new request may send them again: a run of the async API recorded
 * them as sent; one from chat completions or the CLI recorded its settings, of which none is kept.
 */
export function rerunOptions(options: Record<string, unknown> | undefined): Record<string, unknown> {
  return Object.fromEntries(Object.entries(options ?? {}).filter(([name]) => runOptionNames.has(name)));
}

export function readSettings(storage: Pick<Storage, 'getItem'>): PageSettings {
  try {
    const stored = JSON.parse(storage.getItem('deepsearch.settings') ?? '{}') as Partial<PageSettings>;
    const merged = { ...defaultSettings, ...stored };
    if (!['', 'low', 'medium', 'high'].includes(merged.effort)) merged.effort = '';
    return merged;
  } catch {
    return { ...defaultSettings };
  }
}

export function writeSettings(storage: Pick<Storage, 'setItem'>, settings: PageSettings): void {
  storage.setItem('deepsearch.settings', JSON.stringify(settings));
}
