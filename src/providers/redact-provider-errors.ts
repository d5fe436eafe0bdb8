import { type Redactor, redactErrorMessages } from '../errors/index.js';

/**
 * The provider with every error it throws (or rejects with) redacted: no configured secret, from
 * any service's echo, reaches the agent's diary, its events or the caller. Wraps, does not fork:
 * the provider's own fields and methods are otherwise untouched.
 */
export function withRedactedErrors<T extends object>(provider: T, redact: Redactor): T {
  const clean = (error: unknown) => {
    throw redactErrorMessages(error, redact);
  };
  return new Proxy(provider, {
    get(target, key, receiver) {
      const value = Reflect.get(target, key, receiver) as unknown;
      if (typeof value !== 'function') return value;
      return (...args: unknown[]) => {
        try {
          const result = (value as (...params: unknown[]) => unknown).apply(target, args);
          return result instanceof Promise ? result.catch(clean) : result;
        } catch (error) {
          return clean(error);
        }
      };
    },
  });
}
