import type { ReaderConfig } from '../../config/config-schema.js';
import type { ProxySettings } from '../../config/proxy-settings.js';
import { ConfigError } from '../../core/errors/index.js';
import type { ContentExtractor } from '../../extraction/worker/content-extractor.js';
import { findChromium } from '../../platform/browser/launch-chromium.js';
import { createOutboundFetch } from '../../platform/http/outbound-fetch.js';
import type { PageReader } from '../spec/page-reader.js';
import { createAutoReader } from './browser/auto-reader.js';
import { createConfiguredFileReader } from './file/file-reader.js';
import { createJinaReader } from './jina/jina-reader.js';
import { createSchemeReader, type SchemeReader } from './scheme-reader.js';

/** What the runtime passes besides the reader config. */
export interface PageReaderDependencies {
  /** Replaces every fetch of the readers (the builtin reader's guard then judges before each hop only). */
  fetch?: typeof globalThis.fetch;
  /** Parses pages and files (the runtime's extraction pool); default the default settings' pool. */
  extractor?: ContentExtractor;
  /** Proxies and NO_PROXY (resolveProxySettings) for the readers' own fetches. */
  proxy?: ProxySettings;
}

export type PageReaderSettings = ReaderConfig & PageReaderDependencies;

const readers: Readonly<Record<string, (settings: PageReaderSettings) => PageReader>> = {
  auto: (settings) => {
    const builtin = builtinReader(settings);
    // A browser does its own networking: with the caller's fetch in place of ours (tests, a
    // library user's), app shells are read as they are rather than fetched around that fetch.
    const chromium = findChromium(settings.chromiumPath);
    if (chromium.available && !settings.fetch) {
      return createAutoReader({ builtin, browser: browserReader(settings, builtin) });
    }
    const unavailable = chromium.available ? 'the caller replaced the fetch' : chromium.reason;
    return createAutoReader({ builtin, unavailable });
  },
  builtin: (settings) => builtinReader(settings),
  browser: (settings) => browserReader(settings, builtinReader(settings)),
  jina: (settings) =>
    createJinaReader({
      apiKey: settings.jina.apiKey,
      baseURL: settings.jina.baseURL,
      fetch: settings.fetch ?? createOutboundFetch({ proxy: settings.proxy }),
      // Jina renders the page in a browser first; give it more time than a plain fetch.
      timeoutMs: Math.max(30, settings.timeoutSeconds) * 1000,
    }),
};

/** What the builtin and browser readers take alike from reader.*, the proxy settings and the runtime. */
function webReaderSettings(settings: PageReaderSettings) {
  return {
    extractor: settings.extractor,
    timeoutMs: settings.timeoutSeconds * 1000,
    maxBytes: settings.maxBytes,
    maxRedirects: settings.maxRedirects,
    allowPrivateNetwork: settings.allowPrivateNetwork,
    userAgent: settings.userAgent,
    respectRobotsTxt: settings.respectRobotsTxt,
    proxy: settings.proxy,
  };
}

function builtinReader(settings: PageReaderSettings): PageReader {
  return loadOnFirstRead('builtin', () =>
    import('./builtin/builtin-reader.js').then(({ createBuiltinReader }) =>
      createBuiltinReader({ ...webReaderSettings(settings), fetch: settings.fetch }),
    ),
  );
}

/** Chromium is looked for now and launched on the first read; without one, that read says what to install. */
function browserReader(settings: PageReaderSettings, documents: PageReader): PageReader {
  return loadOnFirstRead('browser', () =>
    import('./browser/browser-reader.js').then(({ createBrowserReader }) =>
      createBrowserReader({
        ...webReaderSettings(settings),
        chromium: findChromium(settings.chromiumPath),
        documents,
      }),
    ),
  );
}

/**
 * A reader whose module loads on its first read: the builtin reader brings undici, linkedom,
 * Readability and Turndown, the browser reader Playwright, so a runtime that only searches
 * (deepsearch search) never loads them.
 */
function loadOnFirstRead(id: string, create: () => Promise<PageReader>): PageReader {
  let reader: Promise<PageReader> | undefined;
  const load = () => {
    reader ??= create();
    return reader;
  };
  return {
    specificationVersion: 'v1',
    id,
    freeToPrefetch: true,
    read: (url, options) => load().then((loaded) => loaded.read(url, options)),
    prepare: () =>
      load()
        .then((loaded) => loaded.prepare?.())
        .then(
          () => undefined,
          () => undefined,
        ),
  };
}

export const readerProviderIds: readonly string[] = Object.keys(readers);

/**
 * The reader of every source scheme: http(s) to the configured web reader (an unknown name fails at
 * start with the names that exist), file: to the local file reader (refusing unless
 * reader.allowFiles). More schemes (kb:) are added with `register`.
 */
export function createPageReader(settings: PageReaderSettings): SchemeReader {
  const web = createWebReader(settings);
  const files = createConfiguredFileReader(settings);
  return createSchemeReader({ id: web.id, readers: { 'http:': web, 'https:': web, 'file:': files } });
}

/** The configured web (http/https) reader alone. */
export function createWebReader(settings: PageReaderSettings): PageReader {
  const create = Object.hasOwn(readers, settings.provider) ? readers[settings.provider] : undefined;
  if (!create) {
    throw new ConfigError(
      `unknown reader '${settings.provider}' (available: ${readerProviderIds.join(', ')})`,
      { code: 'config_unknown_provider' },
    );
  }
  return create(settings);
}
