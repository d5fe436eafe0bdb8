import { describe, expect, it } from 'vitest';
import { createRobotsPolicy, isPathAllowed, parseRobotsTxt } from './robots-policy.js';

const robots = `# comment
Disallow: /before-any-agent
User-agent: Googlebot
User-agent: deepsearch
Disallow: /private/   # trailing comment
Allow: /private/public-*.html$

User-agent: *
Disallow: /
`;

describe('parseRobotsTxt and isPathAllowed', () => {
  it('uses the group naming our token (one of several user-agent lines), not the * group', () => {
    const rules = parseRobotsTxt(robots, 'deepsearch');
    expect(rules).toEqual([
      { allow: false, pattern: '/private/' },
      { allow: true, pattern: '/private/public-*.html$' },
    ]);
    expect(isPathAllowed(rules, '/anything')).toBe(true);
    expect(isPathAllowed(rules, '/private/secret')).toBe(false);
    expect(isPathAllowed(rules, '/private/public-notes.html')).toBe(true);
    expect(isPathAllowed(rules, '/private/public-notes.html?x=1')).toBe(false);
  });

  it('falls back to the * group, and treats an empty Disallow as allowing all', () => {
    expect(isPathAllowed(parseRobotsTxt(robots, 'otherbot'), '/x')).toBe(false);
    expect(isPathAllowed(parseRobotsTxt('User-agent: *\nDisallow:\n', 'deepsearch'), '/x')).toBe(true);
  });

  it('lets the longest match win and Allow win a tie', () => {
    const rules = parseRobotsTxt(
      'User-agent: *\nDisallow: /docs\nAllow: /docs/guide\nAllow: /same\nDisallow: /same',
      'deepsearch',
    );
    expect(isPathAllowed(rules, '/docs/api')).toBe(false);
    expect(isPathAllowed(rules, '/docs/guide/intro')).toBe(true);
    expect(isPathAllowed(rules, '/same')).toBe(true);
  });

  it('matches percent-encoded paths against plain patterns', () => {
    const rules = parseRobotsTxt('User-agent: *\nDisallow: /café', 'deepsearch');
    expect(isPathAllowed(rules, '/caf%C3%A9/menu')).toBe(false);
  });
});

describe('createRobotsPolicy', () => {
  it('fetches each origin once and allows everything when robots.txt cannot be had', async () => {
    const fetched: string[] = [];
    const policy = createRobotsPolicy({
      agentToken: 'deepsearch',
      async fetchRobots(url) {
        fetched.push(url);
        if (url.startsWith('https://down.example')) throw new Error('unreachable');
        return 'User-agent: *\nDisallow: /admin';
      },
    });
    expect(await policy.isAllowed('https://a.example/admin/x')).toBe(false);
    expect(await policy.isAllowed('https://a.example/blog')).toBe(true);
    expect(await policy.isAllowed('https://down.example/admin')).toBe(true);
    expect(fetched).toEqual(['https://a.example/robots.txt', 'https://down.example/robots.txt']);
  });
});
