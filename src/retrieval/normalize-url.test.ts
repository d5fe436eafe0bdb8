import { describe, expect, it } from 'vitest';
import { findSourceUrls, hostOf, isNetworkUrl, normalizeUrl, schemeOf, urlKey } from './normalize-url.js';

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

describe('normalizeUrl and urlKey on real-world URLs', () => {
  it('drops ad and social click identifiers but keeps parameters that choose the content', () => {
    expect(normalizeUrl('https://github.com/org/repo/blob/main/a.ts?ref=v2&gclid=1&_gl=x')).toBe(
      'https://github.com/org/repo/blob/main/a.ts?ref=v2',
    );
    expect(normalizeUrl('https://shop.example/item?id=42&page=2&msclkid=z&utm_campaign=s')).toBe(
      'https://shop.example/item?id=42&page=2',
    );
    expect(normalizeUrl('https://example.com/a?utm_source=x')).toBe('https://example.com/a');
  });

  it('keeps hash-bang routes, drops text fragments and anchors, keeps non-default ports', () => {
    expect(normalizeUrl('https://old.example/#!/profile/7')).toBe('https://old.example/#!/profile/7');
    expect(normalizeUrl('https://example.com/page#:~:text=hello')).toBe('https://example.com/page');
    expect(normalizeUrl('http://example.com:8080/x#top')).toBe('http://example.com:8080/x');
  });

  it('gives one key to the same page whatever the parameter order or trailing dot', () => {
    expect(urlKey('https://example.com./p?b=2&a=1')).toBe(urlKey('https://www.example.com/p/?a=1&b=2'));
    expect(urlKey('https://example.com/p?a=1')).not.toBe(urlKey('https://example.com/p?a=2'));
    expect(urlKey('https://example.com/#/a')).not.toBe(urlKey('https://example.com/#/b'));
  });
});

describe('sources beyond http(s)', () => {
  it('normalises file: URLs to absolute local paths without query or fragment', () => {
    expect(normalizeUrl('FILE:///tmp/notes/../report%20v2.pdf?x=1#page=2')).toBe(
      'file:///tmp/report%20v2.pdf',
    );
    expect(normalizeUrl('file://localhost/tmp/a.md')).toBe('file:///tmp/a.md');
    expect(normalizeUrl('file:///tmp/a b.md')).toBe('file:///tmp/a%20b.md');
    expect(normalizeUrl('other.html', 'file:///docs/index.html')).toBe('file:///docs/other.html');
  });

  it('refuses file: URLs that name another machine or a folder', () => {
    expect(normalizeUrl('file://server/share/a.txt')).toBeUndefined();
    expect(normalizeUrl('file:///tmp/')).toBeUndefined();
  });

  it('keeps kb: ids opaque but canonical, and still refuses unknown schemes', () => {
    expect(normalizeUrl(' KB:Notes/Tides.md#chunk-3 ')).toBe('kb:Notes/Tides.md#chunk-3');
    expect(normalizeUrl('kb:')).toBeUndefined();
    for (const input of ['ftp://example.com/a', 'data:text/plain,hi', 'javascript:alert(1)', 'chrome://x']) {
      expect(normalizeUrl(input)).toBeUndefined();
    }
  });

  it('keys local sources by their full URL, apart from any web page', () => {
    expect(urlKey('file:///tmp/x/../a.md#top')).toBe('file:///tmp/a.md');
    expect(urlKey('kb:notes/a')).toBe('kb:notes/a');
    expect(urlKey('kb:notes/a')).not.toBe(urlKey('kb:notes/b'));
    expect(urlKey('file:///example.com/a')).not.toBe(urlKey('https://example.com/a'));
  });

  it('gives local sources no host, so host lists and host health never see them', () => {
    expect(hostOf('file:///etc/hosts')).toBe('');
    expect(hostOf('kb://notes/x')).toBe('');
    expect(isNetworkUrl('https://a.example/')).toBe(true);
    expect(isNetworkUrl('file:///a')).toBe(false);
    expect(schemeOf('KB:x')).toBe('kb:');
  });

  it('finds http(s), file:/// and kb: sources written in a question', () => {
    expect(
      findSourceUrls(
        'Compare file:///home/me/plan.pdf, https://example.com/a?utm_source=x. and kb:notes/tides; not ftp://x or file://host/y',
      ),
    ).toEqual(['file:///home/me/plan.pdf', 'https://example.com/a', 'kb:notes/tides']);
  });
});
