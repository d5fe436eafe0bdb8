import { describe, expect, it } from 'vitest';
import { createRedactor } from '../core/errors/index.js';
import { configSecrets } from './config-secrets.js';
import { deriveConfig } from './derive-config.js';
import { loadConfig } from './load-config.js';
import { maskProxyUrl, resolveProxySettings } from './proxy-settings.js';
import { redactConfig } from './redact-config.js';

function settingsFrom(options: Parameters<typeof loadConfig>[0]) {
  return resolveProxySettings(loadConfig(options));
}

describe('resolveProxySettings', () => {
  it('has no proxy and bypasses loopback by default', () => {
    expect(settingsFrom({ env: {} })).toEqual({ noProxy: ['localhost', '127.0.0.1', '::1'] });
  });

  it('takes HTTPS_PROXY and HTTP_PROXY per scheme, naming the variable that set each', () => {
    const settings = settingsFrom({
      env: { HTTPS_PROXY: 'http://secure.corp:3128', HTTP_PROXY: 'plain.corp:8080' },
    });
    expect(settings.https).toEqual({ url: 'http://secure.corp:3128/', setBy: 'HTTPS_PROXY' });
    // No scheme: http:// is assumed, as curl does.
    expect(settings.http).toEqual({ url: 'http://plain.corp:8080/', setBy: 'HTTP_PROXY' });
  });

  it('reads the lower-case variable first, as curl and undici do', () => {
    const settings = settingsFrom({
      env: { https_proxy: 'http://lower:1/', HTTPS_PROXY: 'http://upper:2/', NO_PROXY: 'a', no_proxy: 'b' },
    });
    expect(settings.https).toEqual({ url: 'http://lower:1/', setBy: 'https_proxy' });
    expect(settings).toMatchObject({ noProxy: ['b'], noProxySetBy: 'no_proxy' });
  });

  it('sends https through HTTP_PROXY when only that is set (undici EnvHttpProxyAgent does the same)', () => {
    const settings = settingsFrom({ env: { HTTP_PROXY: 'http://only:3128' } });
    expect(settings.https).toEqual({ url: 'http://only:3128/', setBy: 'HTTP_PROXY' });
  });

  it('NO_PROXY set to nothing bypasses nothing; set to a list, that list and no default', () => {
    expect(settingsFrom({ env: { HTTP_PROXY: 'http://p:1', NO_PROXY: '' } })).toMatchObject({
      noProxy: [],
      noProxySetBy: 'NO_PROXY',
    });
    expect(settingsFrom({ env: { NO_PROXY: 'localhost, .corp  10.0.0.0/8' } }).noProxy).toEqual([
      'localhost',
      '.corp',
      '10.0.0.0/8',
    ]);
  });

  it('the config file and --proxy win over the variables; none means direct', () => {
    const env = { HTTPS_PROXY: 'http://env:1', HTTP_PROXY: 'http://env:1', NO_PROXY: 'env.test' };
    const file = { network: { proxy: 'http://file:2', noProxy: ['file.test'] } };
    const fromFile = settingsFrom({ env, file, fileName: '/home/me/deepsearch.config.json' });
    expect(fromFile.https).toEqual({
      url: 'http://file:2/',
      setBy: '"network.proxy" in deepsearch.config.json',
    });
    expect(fromFile.http?.url).toBe('http://file:2/');
    expect(fromFile).toMatchObject({
      noProxy: ['file.test'],
      noProxySetBy: '"network.noProxy" in deepsearch.config.json',
    });
    const fromFlag = settingsFrom({ env, file, flags: { proxy: 'http://flag:3', 'proxy-bypass': '' } });
    expect(fromFlag.https).toEqual({ url: 'http://flag:3/', setBy: '--proxy' });
    expect(fromFlag.noProxy).toEqual([]);
    expect(settingsFrom({ env, flags: { proxy: 'none' } })).not.toHaveProperty('https');
    expect(settingsFrom({ env: { HTTPS_PROXY: '', HTTP_PROXY: 'http://p:1' } })).toMatchObject({
      http: { url: 'http://p:1/' },
    });
    expect(settingsFrom({ env: { HTTPS_PROXY: '', HTTP_PROXY: 'http://p:1' } })).not.toHaveProperty('https');
  });

  it("a derived config (a request's own settings) still says what set the proxy", () => {
    const config = loadConfig({ env: { HTTPS_PROXY: 'http://p:1' } });
    const derived = deriveConfig(config, { budget: { maxSteps: 3 } });
    expect(resolveProxySettings(derived).https).toEqual({ url: 'http://p:1/', setBy: 'HTTPS_PROXY' });
  });

  it('refuses a proxy it cannot use, naming the variable and not echoing the value', () => {
    expect(() => loadConfig({ env: { HTTPS_PROXY: 'socks5://user:hunter22@p:1080' } })).toThrow(
      /network\.httpsProxy: must be an http:\/\/ or https:\/\/ proxy \(socks5: proxies are not supported\) \(set by HTTPS_PROXY\)/,
    );
    expect(() => loadConfig({ flags: { proxy: 'http://[not a host' } })).toThrow(
      /network\.proxy: must be a proxy URL like http:\/\/proxy\.corp:3128 \(or none\) \(set by --proxy\)/,
    );
    const message = (() => {
      try {
        loadConfig({ env: { HTTPS_PROXY: 'socks5://user:hunter22@p:1080' } });
        return 'no error';
      } catch (error) {
        return (error as Error).message;
      }
    })();
    expect(message).toContain('HTTPS_PROXY');
    expect(message).not.toContain('hunter22');
  });
});

describe('proxy credentials are secrets', () => {
  const config = loadConfig({ env: { HTTPS_PROXY: 'http://alice:s%40cret-pw@proxy.corp:3128' } });

  it('masks them wherever the proxy is named', () => {
    expect(maskProxyUrl('http://alice:s%40cret-pw@proxy.corp:3128/')).toBe('http://***:***@proxy.corp:3128/');
    expect(maskProxyUrl('http://proxy.corp:3128/')).toBe('http://proxy.corp:3128/');
    expect(JSON.stringify(redactConfig(config))).not.toMatch(/alice|cret-pw/);
    expect(JSON.stringify(redactConfig(config))).toContain('proxy.corp:3128');
  });

  it('the redactor of the config removes the password, decoded or not, and the Basic token', () => {
    const redact = createRedactor(configSecrets(config));
    const token = Buffer.from('alice:s@cret-pw').toString('base64');
    const text = `echo: s@cret-pw s%40cret-pw Basic ${token}`;
    expect(redact(text)).toBe('echo: [redacted] [redacted] Basic [redacted]');
  });
});
