import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { InputError } from '../core/errors/index.js';
import { createKnowledgeBase } from '../knowledge/knowledge-base.js';
import type { EmbeddingProvider } from '../providers/spec/embedding-provider.js';
import type { EvalQuestion } from './eval-types.js';

export const offlineCollection = 'hotpotqa';

/** Where the knowledge base of a corpus built in `dir` lives (the config points there before it is built). */
export function offlineCorpusFile(dir: string): string {
  return join(dir, 'knowledge.sqlite');
}

export function hasContext(questions: readonly EvalQuestion[]): boolean {
  return questions.some((question) => (question.context?.length ?? 0) > 0);
}

export interface OfflineCorpus {
  /** The knowledge base file to search with provider `local`. */
  file: string;
  collection: string;
  paragraphs: number;
  chunks: number;
}

/**
 * HotpotQA's distractor setting as a closed world: every context paragraph of every question pooled
 * into one knowledge base (one document per paragraph title), so the agent searches gold and
 * distractor paragraphs of all questions alike, as in the benchmark's retrieval setting.
 */
export async function buildOfflineCorpus(options: {
  questions: readonly EvalQuestion[];
  dir: string;
  embedding: EmbeddingProvider;
  signal?: AbortSignal;
}): Promise<OfflineCorpus> {
  if (!hasContext(options.questions))
    throw new InputError('--offline-corpus needs questions with context paragraphs (a HotpotQA file)');
  const paragraphs = new Map<string, string>();
  for (const question of options.questions) {
    for (const paragraph of question.context ?? []) {
      paragraphs.set(paragraph.title, `# ${paragraph.title}\n\n${paragraph.text.trim()}\n`);
    }
  }
  const corpus = join(options.dir, 'corpus');
  mkdirSync(corpus, { recursive: true });
  const names = new Set<string>();
  for (const [title, text] of paragraphs) {
    const name = uniqueName(fileName(title), names);
    writeFileSync(join(corpus, name), text);
  }
  const file = offlineCorpusFile(options.dir);
  const knowledgeBase = createKnowledgeBase({ file, embedding: options.embedding });
  try {
    const report = await knowledgeBase.add({
      inputs: [corpus],
      cwd: options.dir,
      collection: offlineCollection,
      signal: options.signal,
    });
    return { file, collection: offlineCollection, paragraphs: paragraphs.size, chunks: report.chunks };
  } finally {
    knowledgeBase.close();
  }
}

/** One file per title: the same paragraph in several questions' contexts is stored once. */
function fileName(title: string): string {
  return title.replace(/[^\p{L}\p{N}]+/gu, '_').slice(0, 80) || 'untitled';
}

/** Titles that differ only in punctuation ("Ed Wood", "Ed-Wood") get files of their own. */
function uniqueName(base: string, taken: Set<string>): string {
  let name = `${base}.md`;
  for (let suffix = 2; taken.has(name); suffix++) name = `${base}_${suffix}.md`;
  taken.add(name);
  return name;
}
