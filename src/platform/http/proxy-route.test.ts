import { describe, expect, it } from 'vitest';
import type { ProxySettings } from '../../config/proxy-settings.js';
import { createNoProxyMatcher, createProxyRoute } from './proxy-route.js';

function bypasses(list: string, url: string): boolean {
  return createNoProxyMatcher(list.split(','))(new URL(url));
}

describe('createNoProxyMatcher (NO_PROXY)', () => {
  it.each([
    ['example.com', 'https://example.com/', true],
    ['example.com', 'https://docs.example.com/a', true],
    ['example.com', 'https://notexample.com/', false],
    ['.example.com', 'https://example.com/', true],
    ['.example.com', 'https://a.b.example.com/', true],
    ['*.example.com', 'https://api.example.com/', true],
    ['EXAMPLE.com', 'https://Example.COM./', true],
    ['*', 'https://anything.test/', true],
    ['other.test,example.com', 'http://example.com/', true],
  ])('names and domains: %s vs %s → %s', (list, url, expected) => {
    expect(bypasses(list, url)).toBe(expected);
  });

  it.each([
    ['example.com:8443', 'https://example.com:8443/', true],
    ['example.com:8443', 'https://example.com/', false],
    ['example.com:443', 'https://example.com/', true],
    ['example.com:80', 'http://example.com/', true],
    ['example.com:80', 'https://example.com/', false],
    ['127.0.0.1:11434', 'http://127.0.0.1:11434/api/tags', true],
    ['127.0.0.1:11434', 'http://127.0.0.1:8080/', false],
    ['[::1]:11434', 'http://[::1]:11434/', true],
    ['[::1]:11434', 'http://[::1]:8080/', false],
  ])('ports: %s vs %s → %s', (list, url, expected) => {
    expect(bypasses(list, url)).toBe(expected);
  });

  it.each([
    ['10.0.0.0/8', 'http://10.20.30.40/', true],
    ['10.0.0.0/8', 'http://11.0.0.1/', false],
    ['192.168.0.0/16', 'https://192.168.1.1:8443/', true],
    ['fd00::/8', 'http://[fd12:3456::1]/', true],
    ['fd00::/8', 'http://[2001:db8::1]/', false],
    ['[fd00::]/8', 'http://[fd12::1]/', true],
    // A range never matches a name, even one that may resolve into it: names are not resolved.
    ['10.0.0.0/8', 'http://intranet.example/', false],
    ['127.0.0.0/8', 'http://127.0.0.2:9000/', true],
  ])('CIDR: %s vs %s → %s', (list, url, expected) => {
    expect(bypasses(list, url)).toBe(expected);
  });

  it.each([
    ['::1', 'http://[::1]:8080/', true],
    ['[::1]', 'http://[::1]/', true],
    ['0:0:0:0:0:0:0:1', 'http://[::1]/', true],
    ['127.0.0.1', 'http://127.0.0.1:11434/', true],
    ['127.0.0.1', 'http://localhost/', false],
    ['localhost', 'http://localhost:11434/', true],
    ['localhost', 'http://127.0.0.1/', false],
  ])('addresses: %s vs %s → %s', (list, url, expected) => {
    expect(bypasses(list, url)).toBe(expected);
  });

  it('an empty list (NO_PROXY set to nothing) bypasses nothing; nonsense entries match nothing', () => {
    expect(createNoProxyMatcher([])(new URL('http://127.0.0.1/'))).toBe(false);
    expect(bypasses('10.0.0.0/99,:,host:notaport', 'http://10.0.0.1/')).toBe(false);
  });
});

describe('createProxyRoute', () => {
  const http = { url: 'http://proxy.test:3128/', setBy: 'HTTP_PROXY' };
  const https = { url: 'http://secure-proxy.test:3128/', setBy: 'HTTPS_PROXY' };

  it('picks the proxy of the URL scheme unless NO_PROXY names the host', () => {
    const route = createProxyRoute({ http, https, noProxy: ['localhost', '127.0.0.1', '::1'] });
    expect(route(new URL('http://example.com/'))).toBe(http);
    expect(route(new URL('https://example.com/'))).toBe(https);
    expect(route(new URL('http://127.0.0.1:11434/v1'))).toBeUndefined();
    expect(route(new URL('https://localhost/'))).toBeUndefined();
  });

  it('is direct for a scheme without a proxy, and for everything without settings', () => {
    const onlyHttps: ProxySettings = { https, noProxy: [] };
    expect(createProxyRoute(onlyHttps)(new URL('http://example.com/'))).toBeUndefined();
    expect(createProxyRoute(onlyHttps)(new URL('https://example.com/'))).toBe(https);
    expect(createProxyRoute(undefined)(new URL('https://example.com/'))).toBeUndefined();
  });
});
