import { BlockedUrlError } from '../../core/errors/index.js';
import { schemeOf } from '../../platform/http/source-schemes.js';
import type { Page, PageReader, ReadOptions } from '../spec/page-reader.js';

/** A reader that hands each source to the reader of its scheme. */
export interface SchemeReader extends PageReader {
  /** The schemes it reads now, e.g. ["http:", "https:", "file:"]. */
  readonly schemes: readonly string[];
  /**
   * Adds or replaces the reader of one scheme ("kb:"): how a local source such as the knowledge
   * base plugs in without the registry knowing it.
   */
  register(scheme: string, reader: PageReader): void;
  /** Prepares every registered reader (the builtin web reader loads its libraries). */
  prepare(): Promise<void>;
}

export interface SchemeReaderOptions {
  /** Readers by scheme, with its colon: {"https:": web, "file:": files}. */
  readers: Readonly<Record<string, PageReader>>;
  /** Reported as the reader's id (the web reader's, so the page cache keeps one key per web reader). */
  id?: string;
}

/**
 * Dispatches by scheme; a scheme without a reader (ftp:, data:, an unregistered kb:) is refused
 * before anything is read, naming the schemes that can be.
 */
export function createSchemeReader(options: SchemeReaderOptions): SchemeReader {
  const readers = new Map<string, PageReader>();
  const register = (scheme: string, reader: PageReader) => {
    const key = schemeOf(scheme.endsWith(':') ? scheme : `${scheme}:`);
    if (!key) throw new TypeError(`not a URL scheme: ${JSON.stringify(scheme)}`);
    readers.set(key, reader);
  };
  for (const [scheme, reader] of Object.entries(options.readers)) register(scheme, reader);
  return {
    specificationVersion: 'v1',
    id: options.id ?? readers.get('https:')?.id ?? 'sources',
    get schemes() {
      return [...readers.keys()];
    },
    // As free as the web reader: local readers (file:, kb:) cost nothing per read anyway.
    get freeToPrefetch() {
      return readers.get('https:')?.freeToPrefetch ?? false;
    },
    async prepare() {
      await Promise.all([...new Set(readers.values())].map((reader) => reader.prepare?.()));
    },
    register,
    read(url: string, readOptions?: ReadOptions): Promise<Page> {
      const scheme = schemeOf(url);
      const reader = scheme ? readers.get(scheme) : undefined;
      if (!reader) {
        const what = scheme ? `${scheme} sources` : 'it: not a URL';
        return Promise.reject(
          new BlockedUrlError(
            `cannot read ${JSON.stringify(url)}: no reader for ${what} (readable: ${[...readers.keys()].join(', ')})`,
            { url },
          ),
        );
      }
      return reader.read(url, readOptions);
    },
  };
}
