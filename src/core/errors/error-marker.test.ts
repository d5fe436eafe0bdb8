import { describe, expect, it, vi } from 'vitest';
import {
  AbortedError,
  AuthenticationError,
  ConfigError,
  DeepSearchError,
  isProviderError,
  ProviderError,
} from './index.js';

describe('error markers', () => {
  it('tells classes apart by marker, subclasses included', () => {
    const auth = new AuthenticationError('no', { providerId: 'llm:openai', statusCode: 401 });
    expect(AuthenticationError.isInstance(auth)).toBe(true);
    expect(ProviderError.isInstance(auth)).toBe(true);
    expect(DeepSearchError.isInstance(auth)).toBe(true);
    const provider = new ProviderError('down', { providerId: 'searxng', statusCode: 503 });
    expect(AuthenticationError.isInstance(provider)).toBe(false);
    expect(ConfigError.isInstance(provider)).toBe(false);
    for (const other of [new Error('plain'), { code: 'aborted' }, null, undefined, 'aborted']) {
      expect(DeepSearchError.isInstance(other)).toBe(false);
    }
  });

  it('recognises errors made by another copy of the package, which instanceof does not', async () => {
    vi.resetModules();
    const copy = await import('./index.js');
    expect(copy.ProviderError).not.toBe(ProviderError);
    const error = new copy.ProviderError('down', { providerId: 'searxng', statusCode: 503 });
    expect(error instanceof ProviderError).toBe(false);
    expect(ProviderError.isInstance(error)).toBe(true);
    expect(isProviderError(error)).toBe(true);
    expect(AbortedError.isInstance(new copy.AbortedError())).toBe(true);
  });

  it('keeps the marker out of what equality and JSON see', () => {
    const error = new ConfigError('set X');
    expect(
      Object.getOwnPropertySymbols(error).every(
        (key) => !Object.getOwnPropertyDescriptor(error, key)!.enumerable,
      ),
    ).toBe(true);
    expect(JSON.stringify(error)).toBe('{"code":"config_invalid","name":"ConfigError"}');
    expect(new ConfigError('set X')).toEqual(error);
  });
});
