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

describe('trust profiles', () => {
  const now = new Date('2026-11-21T00:00:00Z');

  it('record first seen, https, blocks and citations, and move the provisional score', () => {
    const health = new HostHealth();
    health.recordUrl('https://www.docs.example.org/a', 'ok', now);
    health.recordUrl('https://docs.example.org/b', 'blocked', new Date('2026-11-22T00:00:00Z'));
    health.recordReference('https://docs.example.org/a', now);
    health.recordUrl('kb:notes/abc#chunk-0', 'failed', now);
    expect(Object.keys(health.snapshot())).toEqual(['docs.example.org']);
    const profile = health.trustOf('docs.example.org');
    expect(profile).toMatchObject({
      seen: true,
      firstSeen: now.toISOString(),
      https: true,
      successes: 1,
      blocked: 1,
      references: 1,
      blockedFlag: true,
      paywalledFlag: false,
    });
    expect(profile.trust.reasons.map((entry) => entry.reason)).toEqual([
      'https',
      '.org',
      'official documentation',
      'failed or blocked reads',
      'cited in final answers',
    ]);
    // Blocks count double, like paywalls.
    expect(health.penalty('docs.example.org', now)).toBeCloseTo(2 / 4);
  });

  it('score a domain never seen from its name and scheme alone', () => {
    const health = new HostHealth();
    const unseen = health.trustOf('https://en.wikipedia.org/wiki/Brest');
    expect(unseen).toMatchObject({ host: 'en.wikipedia.org', seen: false, https: true, references: 0 });
    expect(unseen.trust.score).toBeCloseTo(0.8);
    expect(health.trustOf('192.168.1.20').trust.score).toBeCloseTo(0.3);
    expect(health.trustOf('http://free-tide-tables.top').trust.score).toBeCloseTo(0.1);
    expect(health.trustOf('example.com').trust).toEqual({ score: 0.5, reasons: [] });
    // Failures lower the score, citations raise it, within [0.05, 0.95].
    for (let index = 0; index < 20; index++) health.record('flaky.example', 'failed', now);
    expect(health.trustOf('flaky.example').trust.score).toBeCloseTo(0.5 - (0.3 * 20) / 21, 3);
    for (let index = 0; index < 100; index++) health.recordReference('https://cited.gov/x', now);
    expect(health.trustOf('cited.gov').trust.score).toBe(0.95);
  });

  it('read profiles saved before trust existed (host health files)', () => {
    const health = new HostHealth({ 'old.example': { failures: 1, successes: 2, paywalled: 0 } });
    expect(health.trustOf('old.example')).toMatchObject({
      seen: true,
      references: 0,
      blocked: 0,
      failures: 1,
    });
    expect(health.changes).toBe(0);
    health.recordReference('https://old.example/x', now);
    expect(health.changes).toBe(1);
  });

  it('list what changed since the last save as increments, per changed host only', () => {
    const health = new HostHealth({
      'old.example': { failures: 1, successes: 2, paywalled: 0, firstSeen: '2025-01-01T00:00:00.000Z' },
      'quiet.example': { failures: 0, successes: 9, paywalled: 0 },
    });
    expect(health.unsavedChanges()).toEqual([]);
    health.recordUrl('https://old.example/a', 'failed', now);
    health.record('old.example', 'ok', now);
    health.recordReference('http://new.example/b', now);
    expect(health.unsavedChanges()).toEqual([
      {
        host: 'old.example',
        failures: 1,
        successes: 1,
        paywalled: 0,
        blocked: 0,
        references: 0,
        https: true,
        firstSeen: '2025-01-01T00:00:00.000Z',
        lastProblemAt: now.toISOString(),
      },
      {
        host: 'new.example',
        failures: 0,
        successes: 0,
        paywalled: 0,
        blocked: 0,
        references: 1,
        https: false,
        firstSeen: now.toISOString(),
      },
    ]);
    health.markSaved({ 'old.example': { failures: 5, successes: 6, paywalled: 0 } });
    expect(health.unsavedChanges().map((change) => change.host)).toEqual(['new.example']);
    expect(health.trustOf('old.example')).toMatchObject({ failures: 5, successes: 6 });
  });

  it('keep what changed while a save was on its way unsaved, on top of the stored profile', () => {
    const health = new HostHealth();
    health.record('busy.example', 'ok', now);
    health.record('busy.example', 'failed', now);
    const sent = health.unsavedChanges();
    // Another run of this runtime reads the host again before the save answers.
    health.record('busy.example', 'ok', now);
    // The store adds the sent change to what another process saved (3 successes).
    health.markSaved({ 'busy.example': { failures: 1, successes: 4, paywalled: 0 } }, sent);
    expect(health.unsavedChanges()).toMatchObject([{ host: 'busy.example', successes: 1, failures: 0 }]);
    expect(health.trustOf('busy.example')).toMatchObject({ failures: 1, successes: 5 });
    health.markSaved({ 'busy.example': { failures: 1, successes: 5, paywalled: 0 } });
    expect(health.unsavedChanges()).toEqual([]);
    expect(health.trustOf('busy.example')).toMatchObject({ failures: 1, successes: 5 });
  });

  it('read again, take the stored profiles with their own unsaved changes on top', () => {
    const health = new HostHealth({ 'a.example': { failures: 0, successes: 1, paywalled: 0 } });
    health.recordReference('https://a.example/x', now);
    health.refresh({
      'a.example': { failures: 2, successes: 3, paywalled: 0, references: 4 },
      'b.example': { failures: 0, successes: 7, paywalled: 0 },
    });
    expect(health.trustOf('a.example')).toMatchObject({ failures: 2, successes: 3, references: 5 });
    expect(health.trustOf('b.example')).toMatchObject({ successes: 7 });
    expect(health.unsavedChanges()).toMatchObject([{ host: 'a.example', references: 1 }]);
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
