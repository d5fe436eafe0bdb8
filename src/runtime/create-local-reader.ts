import type { DeepSearchConfig } from '../config/config-schema.js';
import { configSecrets } from '../config/config-secrets.js';
import { createRedactor } from '../core/errors/index.js';
import type { ContentExtractor } from '../extraction/worker/content-extractor.js';
import { createRedactErrorsMiddleware } from '../providers/middleware/redact-errors-middleware.js';
import { createConfiguredFileReader } from '../providers/reader/file/file-reader.js';
import { createSchemeReader } from '../providers/reader/scheme-reader.js';
import type { PageReader } from '../providers/spec/page-reader.js';
import { wrapPageReader } from '../providers/spec/wrap-provider.js';

export interface LocalReaderOptions {
  config: DeepSearchConfig;
  /** Parses the files (the one-shot `deepsearch read` passes its own). */
  extractor: ContentExtractor;
}

/**
 * The runtime's reader of local files alone: the `file:` reader createRuntime builds from
 * reader.*, its errors redacted as the runtime's are, and nothing else (no web reader, cache,
 * LLM, search or stores). `deepsearch read` of local files only uses it, so it loads none of the
 * rest of the runtime (~0.1 s of modules); another scheme is refused naming the one it reads.
 */
export function createLocalReader(options: LocalReaderOptions): PageReader {
  const { config, extractor } = options;
  const files = createConfiguredFileReader({ ...config.reader, extractor });
  return wrapPageReader({
    provider: createSchemeReader({ id: files.id, readers: { 'file:': files } }),
    middleware: createRedactErrorsMiddleware(createRedactor(configSecrets(config))),
  });
}
