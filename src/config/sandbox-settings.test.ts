import { describe, expect, it } from 'vitest';
import { ConfigError } from '../core/errors/index.js';
import { loadConfig } from './load-config.js';

describe('sandbox settings from env, flags and file', () => {
  it('defaults to the coding action on, with bounded limits', () => {
    expect(loadConfig({}).sandbox).toEqual({
      enabled: true,
      timeoutSeconds: 3,
      memoryMb: 64,
      stackKb: 64,
      maxOutputChars: 20_000,
      maxLogChars: 4000,
      maxInputChars: 60_000,
      concurrency: 1,
    });
  });

  it('reads the limits from variables and flags, flags first', () => {
    const config = loadConfig({
      env: {
        DEEPSEARCH_SANDBOX_TIMEOUT: '0.5',
        DEEPSEARCH_SANDBOX_MEMORY_MB: '32',
        DEEPSEARCH_SANDBOX_STACK_KB: '128',
        DEEPSEARCH_SANDBOX_MAX_OUTPUT: '5000',
        DEEPSEARCH_SANDBOX_MAX_LOGS: '100',
        DEEPSEARCH_SANDBOX_MAX_INPUT: '8000',
        DEEPSEARCH_SANDBOX_CONCURRENCY: '2',
      },
      flags: { 'sandbox-memory-mb': '16' },
    });
    expect(config.sandbox).toEqual({
      enabled: true,
      timeoutSeconds: 0.5,
      memoryMb: 16,
      stackKb: 128,
      maxOutputChars: 5000,
      maxLogChars: 100,
      maxInputChars: 8000,
      concurrency: 2,
    });
  });

  it('turns the coding action off with --no-coding or DEEPSEARCH_NO_CODING', () => {
    expect(loadConfig({ flags: { 'no-coding': true } }).sandbox.enabled).toBe(false);
    expect(loadConfig({ env: { DEEPSEARCH_NO_CODING: 'true' } }).sandbox.enabled).toBe(false);
  });

  it('refuses limits outside their range, naming the variable', () => {
    expect(() => loadConfig({ env: { DEEPSEARCH_SANDBOX_MEMORY_MB: '4096' } })).toThrow(ConfigError);
    expect(() => loadConfig({ env: { DEEPSEARCH_SANDBOX_MEMORY_MB: '4096' } })).toThrow(
      /DEEPSEARCH_SANDBOX_MEMORY_MB/,
    );
    expect(() => loadConfig({ env: { DEEPSEARCH_SANDBOX_STACK_KB: '8192' } })).toThrow(
      /DEEPSEARCH_SANDBOX_STACK_KB/,
    );
    expect(() => loadConfig({ env: { DEEPSEARCH_SANDBOX_CONCURRENCY: '0' } })).toThrow(
      /DEEPSEARCH_SANDBOX_CONCURRENCY/,
    );
  });
});
