import { describe, expect, it } from 'vitest';
import { HostHealth } from './host-health.js';
import { createHostFilter, hostMatches } from './host-lists.js';

describe('HostHealth', () => {
  const now = new Date('2026-11-21T00:00:00Z');

  it('penalises problems, paywalls more than failures, and forgives successes and time', () => {
    const health = new HostHealth();
    health.record('a.example', 'failed', now);
    health.record('b.example', 'paywalled', now);
    expect(health.penalty('a.example', now)).toBeCloseTo(0.5);
    expect(health.penalty('b.example', now)).toBeGreaterThan(health.penalty('a.example', now));
    health.record('a.example', 'ok', now);
    expect(health.penalty('a.example', now)).toBeCloseTo(1 / 3);
    expect(health.penalty('a.example', new Date('2027-02-01T00:00:00Z'))).toBe(0);
    expect(health.penalty('never.example', now)).toBe(0);
  });

  it('round-trips through a snapshot and ignores malformed entries', () => {
    const health = new HostHealth();
    health.record('a.example', 'paywalled', now);
    const restored = new HostHealth({ ...health.snapshot(), 'bad.example': { failures: 'x' } as never });
    expect(restored.penalty('a.example', now)).toBe(health.penalty('a.example', now));
    expect(restored.snapshot()).not.toHaveProperty('bad.example');
  });
});

describe('host lists', () => {
  it('match a host and its subdomains, ignoring www., scheme and case', () => {
    expect(hostMatches('en.wikipedia.org', 'wikipedia.org')).toBe(true);
    expect(hostMatches('www.Example.com', 'https://example.com/')).toBe(true);
    expect(hostMatches('notwikipedia.org', 'wikipedia.org')).toBe(false);
  });

  it('allow a host unless it is bad or outside a non-empty only list; boost listed hosts', () => {
    expect(createHostFilter({}).allowed('a.example')).toBe(true);
    expect(createHostFilter({ bad: ['a.example'] }).allowed('a.example')).toBe(false);
    expect(createHostFilter({ only: ['b.example'] }).allowed('a.example')).toBe(false);
    const filter = createHostFilter({ only: ['https://B.example/'], bad: [], boost: ['www.x.b.example'] });
    expect(filter.allowed('x.b.example')).toBe(true);
    expect(filter.boosted('x.b.example')).toBe(true);
    expect(filter.boosted('b.example')).toBe(false);
  });
});

describe('HostHealth from a damaged file', () => {
  it('starts empty from null, arrays or numbers', () => {
    for (const snapshot of [null, [1, 2], 42, 'text']) {
      expect(new HostHealth(snapshot).snapshot()).toEqual({});
    }
  });
});
