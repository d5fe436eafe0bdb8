import { describe, expect, it } from 'vitest';
import {
  AbortedError,
  AuthenticationError,
  BlockedUrlError,
  BusyError,
  ConfigError,
  InputError,
  isAbortError,
  ProviderError,
  ServiceUnavailableError,
  StructuredOutputError,
} from '../../core/errors/index.js';
import { describeProviderFailure } from '../../server/http/describe-provider-failure.js';
import { toErrorResponse } from '../../server/http/openai-error.js';
import { fromThreadError, toThreadError } from './thread-errors.js';

/** Through a structured clone, as a message between threads carries it. */
const across = (error: unknown) => fromThreadError(structuredClone(toThreadError(error)));

describe('errors from a run thread', () => {
  it('come back as the same class with the same fields, so the server answers them the same', () => {
    const refused = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:9'), { code: 'ECONNREFUSED' });
    const errors = [
      new InputError('the question is too long', { code: 'context_length_exceeded', param: 'messages' }),
      new ConfigError('set DEEPSEARCH_SEARXNG_URL', { code: 'config_missing_search' }),
      new ProviderError('the LLM server failed', {
        providerId: 'llm:openai-compatible',
        code: 'provider_unreachable',
        cause: new TypeError('fetch failed', { cause: refused }),
      }),
      new ProviderError('rate limited', { providerId: 'brave', statusCode: 429, retryAfterMs: 2000 }),
      new AuthenticationError('bad key', { providerId: 'llm:openai', statusCode: 401 }),
      new StructuredOutputError('not JSON', { providerId: 'llm:x', text: '{', validationMessage: 'bad' }),
      new ServiceUnavailableError({ service: { id: 'runs', label: 'the run store' }, retryAfterSeconds: 7 }),
      new BusyError({ code: 'server_busy', message: 'busy', retryAfterSeconds: 3 }),
      new BlockedUrlError('private address', { url: 'http://10.0.0.1/' }),
      new AbortedError(),
    ];
    for (const original of errors) {
      const copy = across(original);
      expect(copy.constructor, original.name).toBe(original.constructor);
      expect(copy.message).toBe(original.message);
      expect(copy.name).toBe(original.name);
      for (const field of [
        'code',
        'param',
        'providerId',
        'statusCode',
        'isRetryable',
        'retryAfterMs',
        'url',
        'service',
        'retryAfterSeconds',
        'text',
        'validationMessage',
      ])
        expect((copy as unknown as Record<string, unknown>)[field], `${original.name}.${field}`).toEqual(
          (original as unknown as Record<string, unknown>)[field],
        );
      // What a client is answered: status, OpenAI error body, Retry-After.
      expect(toErrorResponse(copy), original.name).toEqual(toErrorResponse(original));
    }
  });

  it('keep the network code of a provider failure’s cause, which the client is told', () => {
    const refused = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:9'), { code: 'ECONNREFUSED' });
    const error = new ProviderError('the LLM server failed', {
      providerId: 'llm:openai-compatible',
      code: 'provider_unreachable',
      cause: new TypeError('fetch failed', { cause: refused }),
    });
    const copy = across(error) as ProviderError;
    expect(describeProviderFailure(copy)).toBe(describeProviderFailure(error));
    expect(describeProviderFailure(copy)).toContain('ECONNREFUSED');
  });

  it('an abort stays an abort, and anything else a plain error with its message', () => {
    expect(isAbortError(across(new AbortedError('the client went away')))).toBe(true);
    const plain = across(new RangeError('Maximum call stack size exceeded'));
    expect(plain).toBeInstanceOf(Error);
    expect(plain.message).toBe('Maximum call stack size exceeded');
    expect(plain.name).toBe('RangeError');
    expect(across('a string thrown').message).toBe('a string thrown');
  });
});
