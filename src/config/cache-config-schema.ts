import * as z from 'zod';
import { setting } from './setting.js';

export const cacheKinds = ['search', 'page'] as const;
export type CacheKind = (typeof cacheKinds)[number];

const day = 24 * 3600;

export const cacheConfigSchema = z
  .object({
    enabled: setting(z.boolean().default(true), {
      env: 'DEEPSEARCH_NO_CACHE',
      flag: 'no-cache',
      negate: true,
      description: 'neither read nor write the on-disk cache of search results and pages',
    }),
    // Unset: the CLI gives the user's data directory (defaultCacheDir in create-provider-cache.ts).
    dir: setting(z.string().min(1).optional(), {
      env: 'DEEPSEARCH_CACHE_DIR',
      flag: 'cache-dir',
      description: "folder of the cache database (default: the user's data directory)",
    }),
    ttlSeconds: z
      .object({
        search: setting(z.number().int().min(0).default(day), {
          env: 'DEEPSEARCH_CACHE_TTL_SEARCH',
          description: 'seconds a cached search result stays fresh',
        }),
        page: setting(
          z
            .number()
            .int()
            .min(0)
            .default(7 * day),
          { env: 'DEEPSEARCH_CACHE_TTL_PAGE', description: 'seconds a cached page stays fresh' },
        ),
      })
      .strict()
      .default({ search: day, page: 7 * day }),
  })
  .strict();

/** The local knowledge base (`deepsearch kb`, search provider `local`, `ask --kb`). */
export const knowledgeConfigSchema = z
  .object({
    // The flag is --kb, a command's own (it also turns `merge` on).
    file: setting(z.string().min(1).optional(), {
      env: 'DEEPSEARCH_KB',
      description:
        "knowledge base database file (default: knowledge.sqlite in the user's data directory; flag --kb)",
    }),
    merge: setting(z.boolean().default(false), {
      description: 'merge knowledge base hits into every web search step (as --kb does)',
    }),
    collection: setting(z.string().min(1).optional(), {
      env: 'DEEPSEARCH_KB_COLLECTION',
      flag: 'kb-collection',
      description: 'search only this knowledge base collection (default: all)',
    }),
    maxFileBytes: setting(
      z
        .number()
        .int()
        .positive()
        .default(64 * 1024 * 1024),
      {
        env: 'DEEPSEARCH_KB_MAX_FILE_BYTES',
        description: 'largest file kb add reads: longer text is cut there, other files refused',
      },
    ),
  })
  .strict();
