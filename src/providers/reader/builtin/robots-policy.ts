export interface RobotsRule {
  allow: boolean;
  /** Path pattern: `*` matches any run of characters, a final `$` anchors the end. */
  pattern: string;
}

export interface RobotsPolicyOptions {
  /** The product token groups are matched against, e.g. 'deepsearch'. */
  agentToken: string;
  /** robots.txt of an origin, or undefined when there is none or it cannot be had (then all is allowed). */
  fetchRobots(robotsUrl: string, signal?: AbortSignal): Promise<string | undefined>;
}

export interface RobotsPolicy {
  isAllowed(url: string, signal?: AbortSignal): Promise<boolean>;
}

/** robots.txt (RFC 9309) checked per URL, each origin's file fetched once per reader. */
export function createRobotsPolicy(options: RobotsPolicyOptions): RobotsPolicy {
  const byOrigin = new Map<string, Promise<RobotsRule[]>>();
  return {
    async isAllowed(url, signal) {
      const parsed = new URL(url);
      let rules = byOrigin.get(parsed.origin);
      if (!rules) {
        rules = options
          .fetchRobots(`${parsed.origin}/robots.txt`, signal)
          .then((text) => (text ? parseRobotsTxt(text, options.agentToken) : []))
          .catch(() => []);
        byOrigin.set(parsed.origin, rules);
      }
      return isPathAllowed(await rules, `${parsed.pathname}${parsed.search}`);
    },
  };
}

/**
 * The rules of the group naming agentToken, else of the `*` group. Consecutive user-agent lines
 * share one group; rules before any user-agent line are ignored.
 */
export function parseRobotsTxt(text: string, agentToken: string): RobotsRule[] {
  const token = agentToken.toLowerCase();
  const groups: Array<{ agents: string[]; rules: RobotsRule[] }> = [];
  let current: { agents: string[]; rules: RobotsRule[] } | undefined;
  let lastWasAgent = false;
  for (const rawLine of text.split(/\r?\n/)) {
    const line = rawLine.replace(/#.*/, '').trim();
    const match = /^([A-Za-z-]+)\s*:\s*(.*)$/.exec(line);
    if (!match) continue;
    const field = match[1]!.toLowerCase();
    const value = match[2]!.trim();
    if (field === 'user-agent') {
      if (!current || !lastWasAgent) {
        current = { agents: [], rules: [] };
        groups.push(current);
      }
      current.agents.push(value.toLowerCase());
      lastWasAgent = true;
      continue;
    }
    lastWasAgent = false;
    if (!current || (field !== 'allow' && field !== 'disallow')) continue;
    // An empty Disallow allows everything; it adds no rule.
    if (value) current.rules.push({ allow: field === 'allow', pattern: value });
  }
  const named = groups.filter((group) =>
    group.agents.some((agent) => agent !== '*' && token.includes(agent)),
  );
  const chosen = named.length > 0 ? named : groups.filter((group) => group.agents.includes('*'));
  return chosen.flatMap((group) => group.rules);
}

/** The longest matching rule decides; on a tie Allow wins; no match means allowed. */
export function isPathAllowed(rules: readonly RobotsRule[], path: string): boolean {
  let best: RobotsRule | undefined;
  for (const rule of rules) {
    if (!matchesPattern(rule.pattern, path)) continue;
    if (
      !best ||
      rule.pattern.length > best.pattern.length ||
      (rule.pattern.length === best.pattern.length && rule.allow)
    ) {
      best = rule;
    }
  }
  return best?.allow ?? true;
}

function matchesPattern(pattern: string, path: string): boolean {
  const anchored = pattern.endsWith('$');
  const body = anchored ? pattern.slice(0, -1) : pattern;
  const source = body
    .split('*')
    .map((part) => part.replace(/[.+?^${}()|[\]\\]/g, '\\$&'))
    .join('.*');
  const regex = new RegExp(`^${source}${anchored ? '$' : ''}`);
  return regex.test(path) || regex.test(safeDecode(path));
}

function safeDecode(path: string): string {
  try {
    return decodeURI(path);
  } catch {
    return path;
  }
}
