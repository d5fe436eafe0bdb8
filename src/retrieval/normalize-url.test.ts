import { describe, expect, it } from 'vitest';
import { hostOf, normalizeUrl, urlKey } from './normalize-url.js';

describe('normalizeUrl', () => {
  it('drops default ports, tracking parameters, credentials and plain fragments', () => {
    expect(normalizeUrl('HTTPS://User:pw@Example.COM:443/a/b?utm_source=x&id=3&fbclid=y#section')).toBe(
      'https://example.com/a/b?id=3',
    );
  });

  it('keeps hash routes and meaningful query parameters', () => {
    expect(normalizeUrl('https://app.example.com/#/docs/page?x=1')).toBe(
      'https://app.example.com/#/docs/page?x=1',
    );
    expect(normalizeUrl('https://example.com/watch?v=abc')).toBe('https://example.com/watch?v=abc');
  });

  it('resolves relative URLs and rejects non-http schemes', () => {
    expect(normalizeUrl('../c', 'https://example.com/a/b/')).toBe('https://example.com/a/c');
    expect(normalizeUrl('javascript:alert(1)')).toBeUndefined();
    expect(normalizeUrl('mailto:a@b.c')).toBeUndefined();
    expect(normalizeUrl('not a url')).toBeUndefined();
  });
});

describe('urlKey and hostOf', () => {
  it('treats www. and a trailing slash as the same page', () => {
    expect(urlKey('https://www.example.com/page/')).toBe(urlKey('http://example.com/page'));
    expect(urlKey('https://example.com/a')).not.toBe(urlKey('https://example.com/b'));
  });

  it('returns the host without www.', () => {
    expect(hostOf('https://www.Example.com/x')).toBe('example.com');
    expect(hostOf('nope')).toBe('');
  });
});
