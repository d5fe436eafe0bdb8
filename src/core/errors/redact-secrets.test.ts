import { describe, expect, it } from 'vitest';
import { canBeSecret, createRedactor, requestSecrets } from './redact-secrets.js';

describe('which configured values are secrets', () => {
  it('placeholders local servers take are not: ordinary text that contains them stays as it is', () => {
    const placeholders = [
      'ollama',
      'Kestrel',
      'lm-studio',
      'EMPTY',
      'not-needed',
      'none',
      'changeme',
      'local key',
    ];
    for (const value of placeholders) expect(canBeSecret(value), value).toBe(false);
    const redact = createRedactor(placeholders);
    const answer =
      'The Varnholt Observatory was founded in 1893 by the Kestrel Trust; model ollama-test via lm-studio.';
    expect(redact(answer)).toBe(answer);
  });

  it('vendor key shapes and random-looking values are, wherever they appear', () => {
    const keys = [
      'sk-proj-9f3Kx0aQ7LmZ2wP4rT8v',
      'sk-ant-api03-Zx81aQ9mN2bV7cL0',
      'AIzaSyD4e8f1K9qL2mN7pR0sT3vW6xY',
      'gsk_8Jf2kL9mQ4nR7sT1',
      'hf_AbCdEfGhIjKlMnOp',
      '4f9a2b7c1d8e6f3a0b5c9d2e',
      'token-abc123',
      'hunter2-secret',
    ];
    for (const key of keys) expect(canBeSecret(key), key).toBe(true);
    const redact = createRedactor(keys);
    for (const key of keys) {
      expect(redact(`error for Bearer ${key} (${encodeURIComponent(key)})`)).toBe(
        'error for Bearer [redacted] ([redacted])',
      );
      // Even inside a quote of a page: a real key never reaches an answer.
      expect(redact(`"the key is ${key}"`)).toBe('"the key is [redacted]"');
    }
  });

  it('low-entropy or short values are not, even when long', () => {
    expect(canBeSecret('aaaaaaaaaaaaaaaaaaaa')).toBe(false);
    expect(canBeSecret('abcabcabcabc')).toBe(false);
    expect(canBeSecret('password')).toBe(false);
  });

  it("a password (a proxy's, one written in a URL) is redacted whatever it looks like", () => {
    const redact = createRedactor([{ password: 'hunter2' }, 'hunter2-looking-key'.slice(0, 4)]);
    expect(redact('proxy login hunter2 refused')).toBe('proxy login [redacted] refused');
    expect(createRedactor([{ password: 'abc' }])('abc')).toBe('abc');
    const fromUrl = createRedactor(requestSecrets('http://alice:pw12@proxy.example:3128/', undefined));
    expect(fromUrl('auth pw12 failed')).toBe('auth [redacted] failed');
  });

  it("a request's credential headers are redacted only when they can be secrets", () => {
    const secrets = requestSecrets('https://api.example/v1?key=AIzaSyD4e8f1K9qL2mN7pR0sT3vW6xY', {
      authorization: 'Bearer ollama',
    });
    const redact = createRedactor(secrets);
    expect(redact('Bearer ollama, key AIzaSyD4e8f1K9qL2mN7pR0sT3vW6xY')).toBe(
      'Bearer ollama, key [redacted]',
    );
  });
});
