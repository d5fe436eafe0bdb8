import type { SearchHit } from '../../providers/spec/search-provider.js';
import type { ActionName, KnowledgeItem, Reference } from '../agent-types.js';
import { GapQueue } from '../gap-queue.js';
import { Diary } from './diary.js';
import { PageStore } from './page-store.js';
import { UrlIndex } from './url-index.js';

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

/** Everything the loop knows. Steps read and update it; prompts are rendered from it. */
export class AgentState {
  readonly question: string;
  readonly gaps: GapQueue;
  readonly knowledge: KnowledgeItem[] = [];
  readonly diary = new Diary();
  readonly urls = new UrlIndex();
  readonly pages = new PageStore();
  readonly searches: SearchRecord[] = [];
  readonly queriesDone = new Set<string>();
  /** Keys of URLs read successfully or tried and failed: not offered again. */
  readonly visited = new Set<string>();
  readonly badUrls = new Map<string, string>();
  readonly failedAttempts: FailedAttempt[] = [];
  /** Actions switched off for the next step only (e.g. answer right after a rejection). */
  disabled = new Set<ActionName>();

  constructor(question: string) {
    this.question = question;
    this.gaps = new GapQueue(question);
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
