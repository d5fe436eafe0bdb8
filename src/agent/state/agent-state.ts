import type { ActionName, KnowledgeItem, Reference } from '../../events/deep-search-result.js';
import type { Page } from '../../providers/spec/page-reader.js';
import type { SearchHit } from '../../providers/spec/search-provider.js';
import type { SkippedPage } from '../../retrieval/skipped-page.js';
import { GapQueue, type GapQueueSnapshot } from '../gap-queue.js';
import { Diary, type DiaryEntry } from './diary.js';
import { PageStore, type StoredPage } from './page-store.js';
import { ProgressStreak, type ProgressStreakSnapshot } from './progress-streak.js';
import { SourceNumbers } from './source-numbers.js';
import { UrlIndex, type UrlRecordSnapshot } from './url-index.js';

/** A rejected answer and what the analysis said to do differently. */
export interface FailedAttempt {
  step: number;
  answer: string;
  /** Its verified references, kept so a fallback can still show them. */
  references: Reference[];
  reason: string;
  recap: string;
  blame: string;
  improvement: string;
}

/** Search hits kept as side knowledge and as citable sources (title + snippet). */
export interface SearchRecord {
  query: string;
  step: number;
  hits: SearchHit[];
}

/**
 * What runs of one task can share, so a page is read once and what one run learned helps the
 * others (research sections): sources, pages, searches, knowledge and the caches derived from them.
 */
export interface SharedKnowledge {
  readonly knowledge: KnowledgeItem[];
  readonly urls: UrlIndex;
  readonly pages: PageStore;
  readonly searches: SearchRecord[];
  /** Embeddings of queries, by text, so each is embedded once for dedup. */
  readonly queryVectors: Map<string, Float32Array>;
  /** Embeddings of questions for snippet scoring, by text. */
  readonly questionVectors: Map<string, Float32Array>;
  /** Reranker scores by question, then URL key: each pair is scored once. */
  readonly rerankScores: Map<string, Map<string, number>>;
  /** Keys of URLs read successfully or tried and failed: not offered again. */
  readonly visited: Set<string>;
  readonly badUrls: Map<string, string>;
  /** Pages chosen but not read (a bot check, a paywall stub, a timeout...), by URL key: the result's `skipped`. */
  readonly skipped: Map<string, SkippedPage>;
}

export function createSharedKnowledge(): SharedKnowledge {
  return {
    knowledge: [],
    urls: new UrlIndex(),
    pages: new PageStore(),
    searches: [],
    queryVectors: new Map(),
    questionVectors: new Map(),
    rerankScores: new Map(),
    visited: new Set(),
    badUrls: new Map(),
    skipped: new Map(),
  };
}

/**
 * The state as plain JSON, for a checkpoint. Embeddings, reranker scores and page indexes are
 * left out: they are derived again when needed. Reads ahead of the model are not kept either.
 */
export interface AgentStateSnapshot {
  question: string;
  currentQuestion: string;
  gaps: GapQueueSnapshot;
  diary: DiaryEntry[];
  failedAttempts: FailedAttempt[];
  knowledge: KnowledgeItem[];
  urls: UrlRecordSnapshot[];
  pages: Array<{ keys: string[]; page: StoredPage }>;
  searches: SearchRecord[];
  visited: string[];
  badUrls: Array<[string, string]>;
  /** Absent in checkpoints written before it existed. */
  skipped?: Array<[string, SkippedPage]>;
  disabled: ActionName[];
  /** Absent in checkpoints written before it existed. */
  progress?: ProgressStreakSnapshot;
}

/**
 * Everything the loop knows. Steps read and update it; prompts are rendered from it. The
 * question, its gap queue, diary and rejected attempts are the run's own; the rest may be shared.
 */
export class AgentState implements SharedKnowledge {
  readonly question: string;
  readonly gaps: GapQueue;
  readonly diary: Diary;
  readonly failedAttempts: FailedAttempt[] = [];
  /** The number each source is shown and cited by. */
  readonly sourceNumbers = new SourceNumbers();
  /** Pages read ahead of the model's choice, by URL key, until a visit takes them. */
  readonly prefetched = new Map<string, Promise<Page>>();
  /** Stops the reads ahead nobody took when the run ends. */
  readonly prefetchController = new AbortController();
  /** The question of the step under way (a sub-question or the original). */
  currentQuestion: string;
  readonly knowledge: KnowledgeItem[];
  readonly urls: UrlIndex;
  readonly pages: PageStore;
  readonly searches: SearchRecord[];
  readonly queryVectors: Map<string, Float32Array>;
  readonly questionVectors: Map<string, Float32Array>;
  readonly rerankScores: Map<string, Map<string, number>>;
  readonly visited: Set<string>;
  readonly badUrls: Map<string, string>;
  readonly skipped: Map<string, SkippedPage>;
  /** Actions switched off for the next step only (e.g. answer right after a rejection). */
  disabled = new Set<ActionName>();
  /** Steps that did nothing new, in a row and in all (the run's own, like the diary). */
  progress = new ProgressStreak();

  constructor(
    question: string,
    shared: SharedKnowledge = createSharedKnowledge(),
    own: { gaps?: GapQueue; diary?: Diary } = {},
  ) {
    this.question = question;
    this.gaps = own.gaps ?? new GapQueue(question);
    this.diary = own.diary ?? new Diary();
    this.currentQuestion = question;
    this.knowledge = shared.knowledge;
    this.urls = shared.urls;
    this.pages = shared.pages;
    this.searches = shared.searches;
    this.queryVectors = shared.queryVectors;
    this.questionVectors = shared.questionVectors;
    this.rerankScores = shared.rerankScores;
    this.visited = shared.visited;
    this.badUrls = shared.badUrls;
    this.skipped = shared.skipped;
  }

  toJSON(): AgentStateSnapshot {
    return {
      question: this.question,
      currentQuestion: this.currentQuestion,
      gaps: this.gaps.toJSON(),
      diary: this.diary.toJSON(),
      failedAttempts: this.failedAttempts,
      knowledge: this.knowledge,
      urls: this.urls.toJSON(),
      pages: this.pages.toJSON(),
      searches: this.searches,
      visited: [...this.visited],
      badUrls: [...this.badUrls],
      skipped: [...this.skipped],
      disabled: [...this.disabled],
      progress: this.progress.toJSON(),
    };
  }

  /** The state a checkpoint saved, ready for the loop to go on from. */
  static fromJSON(snapshot: AgentStateSnapshot): AgentState {
    const shared: SharedKnowledge = {
      ...createSharedKnowledge(),
      knowledge: [...snapshot.knowledge],
      urls: UrlIndex.fromJSON(snapshot.urls),
      pages: PageStore.fromJSON(snapshot.pages),
      searches: [...snapshot.searches],
      visited: new Set(snapshot.visited),
      badUrls: new Map(snapshot.badUrls),
      skipped: new Map(snapshot.skipped ?? []),
    };
    const state = new AgentState(snapshot.question, shared, {
      gaps: GapQueue.fromJSON(snapshot.gaps),
      diary: Diary.fromJSON(snapshot.diary),
    });
    state.currentQuestion = snapshot.currentQuestion;
    state.failedAttempts.push(...snapshot.failedAttempts);
    state.disabled = new Set(snapshot.disabled);
    state.progress = ProgressStreak.fromJSON(snapshot.progress);
    return state;
  }

  /** Search snippets for a URL, joined: the citable text when the page was not read. */
  snippetTextFor(url: string): { title: string; text: string } | undefined {
    const record = this.urls.get(url);
    if (!record?.sources.size) return undefined;
    const fromSearch = [...record.sources].some((source) => source.startsWith('search:'));
    if (!fromSearch) return undefined;
    return { title: record.title, text: `${record.title}\n${record.snippet}` };
  }
}
