import { describe, expect, it } from 'vitest';
import { ConfigError } from '../core/errors/index.js';
import { deriveConfig } from './derive-config.js';
import { loadConfig } from './load-config.js';

describe('deriveConfig', () => {
  const base = loadConfig({
    file: { budget: { maxSteps: 12 }, search: { provider: 'searxng', searxngUrl: 'http://127.0.0.1:8888' } },
  });

  it('replaces only the settings given, leaves the base untouched, and keeps the rest', () => {
    const derived = deriveConfig(base, {
      budget: { maxAttempts: 1, maxSteps: undefined },
      search: { onlyHostnames: ['python.org'] },
    });
    expect(derived.budget).toEqual({ ...base.budget, maxAttempts: 1 });
    expect(derived.search).toEqual({ ...base.search, onlyHostnames: ['python.org'] });
    expect(derived.llm).toEqual(base.llm);
    expect(base.search.onlyHostnames).toEqual([]);
  });

  it('with nothing replaced (a request without options) gives the loaded config itself, not a copy checked again', () => {
    expect(deriveConfig(base, {})).toBe(base);
    expect(deriveConfig(base, { budget: { maxSteps: undefined }, search: { provider: undefined } })).toBe(
      base,
    );
    expect(deriveConfig(base, { agent: { language: 'fr' } })).not.toBe(base);
  });

  it("with settings equal to the base's (a stored run's, resumed by a worker) gives the loaded config itself", () => {
    const same = { budget: { ...base.budget }, agent: { ...base.agent }, search: { ...base.search } };
    expect(deriveConfig(base, same)).toBe(base);
    const otherList = deriveConfig(base, {
      ...same,
      search: { ...base.search, onlyHostnames: ['python.org'] },
    });
    expect(otherList).not.toBe(base);
    expect(otherList.search.onlyHostnames).toEqual(['python.org']);
    expect(otherList.budget).toEqual(base.budget);
  });

  it('validates the result with the same schema as a loaded config', () => {
    expect(() => deriveConfig(base, { budget: { maxSteps: 0 } })).toThrow(ConfigError);
    expect(() => deriveConfig(base, { budget: { maxSteps: 0 } })).toThrow(/budget\.maxSteps/);
  });
});

describe('list settings from the environment', () => {
  it('splits DEEPSEARCH_API_KEYS and DEEPSEARCH_CORS_ORIGINS on commas', () => {
    const config = loadConfig({
      env: {
        DEEPSEARCH_API_KEYS: 'sk-first-123456, sk-second-654321,',
        DEEPSEARCH_CORS_ORIGINS: '*',
        DEEPSEARCH_PORT: '8080',
      },
    });
    expect(config.server).toMatchObject({
      apiKeys: ['sk-first-123456', 'sk-second-654321'],
      corsOrigins: ['*'],
      port: 8080,
      host: '127.0.0.1',
    });
  });

  it('refuses a CORS origin that is not one, naming the variable', () => {
    expect(() => loadConfig({ env: { DEEPSEARCH_CORS_ORIGINS: 'not an origin' } })).toThrow(
      /server.corsOrigins.0: not an origin: write scheme:\/\/host.*DEEPSEARCH_CORS_ORIGINS/,
    );
    expect(() => loadConfig({ env: { DEEPSEARCH_CORS_ORIGINS: 'https://chat.example/app' } })).toThrow(
      /DEEPSEARCH_CORS_ORIGINS/,
    );
    expect(
      loadConfig({ env: { DEEPSEARCH_CORS_ORIGINS: 'https://Chat.example/, http://localhost:5173' } }).server
        .corsOrigins,
    ).toEqual(['https://Chat.example/', 'http://localhost:5173']);
  });

  it('names the variable when a key is too short to be a real one', () => {
    expect(() => loadConfig({ env: { DEEPSEARCH_API_KEYS: 'short' } })).toThrow(/DEEPSEARCH_API_KEYS/);
  });
});
