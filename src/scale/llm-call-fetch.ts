import type { DeepSearchConfig } from '../config/config-schema.js';
import { llmRoles } from '../config/config-schema.js';
import { resolveLlmSettings } from '../config/resolve-llm-settings.js';
import type { TaskLimit } from '../core/semaphore.js';

/**
 * A worker's fetch for the calls to model servers (the runtime's modelFetch), with a cap on LLM
 * calls (scale.llmConcurrency: the Redis semaphore shared by every worker): a call to one of the
 * config's LLM servers (a role's base URL) waits for a place under `limit` and holds it until its
 * response body is read to the end, cancelled or broken, a streamed answer included; any other
 * request passes straight through.
 */
export function createLlmCallFetch(options: {
  fetch: typeof globalThis.fetch;
  config: DeepSearchConfig;
  limit: TaskLimit;
}): typeof globalThis.fetch {
  const { fetch, limit } = options;
  const servers = llmServers(options.config);
  return async (input, init) => {
    const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
    if (!servers.some((base) => url.startsWith(base))) return fetch(input, init);
    let release!: () => void;
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    const response = await new Promise<Response>((resolve, reject) => {
      limit
        .run(async () => {
          const answered = await fetch(input, init).catch((error: unknown) => {
            release();
            throw error;
          });
          resolve(answered);
          await held;
        }, init?.signal ?? undefined)
        .catch(reject);
    });
    if (!response.body) {
      release();
      return response;
    }
    return new Response(releasingBody(response.body, release), response);
  };
}

/** The body as it was, calling `release` once when it ends, fails or is cancelled. */
function releasingBody(body: ReadableStream<Uint8Array>, release: () => void): ReadableStream<Uint8Array> {
  const reader = body.getReader();
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      try {
        const { done, value } = await reader.read();
        if (done) {
          release();
          controller.close();
        } else controller.enqueue(value);
      } catch (error) {
        release();
        controller.error(error);
      }
    },
    async cancel(reason) {
      release();
      await reader.cancel(reason);
    },
  });
}

/** The base URLs of the LLM servers the config's roles call (hosted APIs without one are not capped). */
function llmServers(config: DeepSearchConfig): string[] {
  const bases = new Set<string>();
  for (const role of llmRoles) {
    try {
      const base = resolveLlmSettings(config, role).baseURL;
      if (base) bases.add(base.replace(/\/+$/, ''));
    } catch {
      // A role that cannot be resolved makes no call to cap; its first call says what to set.
    }
  }
  return [...bases];
}
