import { join } from 'node:path';

export const knowledgeFileName = 'knowledge.sqlite';

/** The knowledge base file in a data directory (the same folder as the cache by default). */
export function defaultKnowledgeFile(dataDir: string): string {
  return join(dataDir, knowledgeFileName);
}
