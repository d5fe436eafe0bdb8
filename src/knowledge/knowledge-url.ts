import { InputError } from '../core/errors/index.js';

/**
 * Citation URLs of the knowledge base: `kb:<collection>/<document key>#chunk-<position>`. The key
 * is derived from the collection and the source path or URL, so it survives re-ingestion of a
 * changed file; the fragment names the chunk a hit came from and readers ignore it (a `kb:` URL
 * without fragment is the whole document).
 */
export function knowledgeUrl(chunk: { collection: string; documentKey: string; position?: number }): string {
  const base = `kb:${encodeURIComponent(chunk.collection)}/${chunk.documentKey}`;
  return chunk.position === undefined ? base : `${base}#chunk-${chunk.position}`;
}

export interface KnowledgeUrlParts {
  collection: string;
  documentKey: string;
  chunk?: number;
}

export function isKnowledgeUrl(url: string): boolean {
  return url.startsWith('kb:');
}

export function parseKnowledgeUrl(url: string): KnowledgeUrlParts {
  const match = /^kb:([^/#]+)\/([0-9a-f]{12})(?:#chunk-(\d+))?$/.exec(url.trim());
  if (!match) {
    throw new InputError(`not a knowledge base URL: ${url} (expected kb:<collection>/<12 hex digits>)`, {
      param: 'url',
    });
  }
  return {
    collection: decodeURIComponent(match[1]!),
    documentKey: match[2]!,
    ...(match[3] !== undefined ? { chunk: Number(match[3]) } : {}),
  };
}
