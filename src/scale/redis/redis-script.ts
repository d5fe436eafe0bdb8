import type { Redis } from 'ioredis';

/** Runs one Lua script with its keys first, then its arguments. */
export type RedisScript = (...keysThenArgs: Array<string | number>) => Promise<unknown>;

/**
 * A Lua script of ours on one connection, sent by its SHA (EVALSHA): ioredis sends the source
 * once per connection (EVAL), and again only after Redis answers NOSCRIPT (a restart, SCRIPT
 * FLUSH). EVAL of the source on every call makes Redis hash it each time and puts it on the wire:
 * for a script run per event batch or per LLM call, that is most of what the call costs.
 */
export function defineScript(redis: Redis, name: string, script: { keys: number; lua: string }): RedisScript {
  redis.defineCommand(name, { numberOfKeys: script.keys, lua: script.lua });
  const command = (redis as unknown as Record<string, RedisScript>)[name]!;
  return (...keysThenArgs) => command.apply(redis, keysThenArgs);
}
