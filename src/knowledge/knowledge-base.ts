import type { ContentExtractor } from '../extraction/worker/content-extractor.js';
import type { EmbeddingProvider } from '../providers/spec/embedding-provider.js';
import type { PageReader } from '../providers/spec/page-reader.js';
import type { Reranker } from '../providers/spec/reranker.js';
import type { IngestOptions, IngestReport } from './ingest-documents.js';
import { KnowledgeStore } from './knowledge-store.js';
import type { VectorBackend } from './open-knowledge-database.js';
import {
  type KnowledgeSearchOptions,
  type KnowledgeSearchResult,
  searchKnowledge,
} from './search-knowledge.js';

export interface KnowledgeBaseSettings {
  file: string;
  embedding: EmbeddingProvider;
  reranker?: Reranker;
  reader?: PageReader;
  /** Parses files `add` reads (the runtime's extraction pool); default the default settings' pool. */
  extractor?: ContentExtractor;
  /** Largest file `add` reads (knowledge.maxFileBytes). */
  maxFileBytes?: number;
  /** Tests force the exact-scan fallback. */
  vectorBackend?: VectorBackend;
}

export interface KnowledgeBase {
  readonly file: string;
  /** The open store (opened on first use). */
  store(): KnowledgeStore;
  add(
    options: Omit<IngestOptions, 'store' | 'embedding' | 'reader' | 'extractor' | 'maxFileBytes'>,
  ): Promise<IngestReport>;
  search(
    options: Omit<KnowledgeSearchOptions, 'store' | 'embedding' | 'reranker'>,
  ): Promise<KnowledgeSearchResult>;
  close(): void;
}

/**
 * The knowledge base as its users see it (the kb command, the `local` search provider, the kb
 * reader): one database, the configured embedding and reranker. Nothing is opened until the
 * first call, so a run that never touches it never loads the native modules.
 */
export function createKnowledgeBase(settings: KnowledgeBaseSettings): KnowledgeBase {
  let opened: KnowledgeStore | undefined;
  const store = () => {
    opened ??= new KnowledgeStore({ file: settings.file, vectorBackend: settings.vectorBackend });
    return opened;
  };
  return {
    file: settings.file,
    store,
    // Ingestion (parsers, chunking, analysis) loads when something is added: `kb search` starts without it.
    async add(options) {
      const { ingestDocuments } = await import('./ingest-documents.js');
      return ingestDocuments({
        ...options,
        store: store(),
        embedding: settings.embedding,
        reader: settings.reader,
        extractor: settings.extractor,
        maxFileBytes: settings.maxFileBytes,
      });
    },
    search: (options) =>
      searchKnowledge({
        ...options,
        store: store(),
        embedding: settings.embedding,
        reranker: settings.reranker,
      }),
    close() {
      opened?.close();
      opened = undefined;
    },
  };
}
