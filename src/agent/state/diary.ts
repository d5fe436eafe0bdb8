import type { ActionName } from '../../events/deep-search-result.js';

export interface DiaryEntry {
  step: number;
  action: ActionName | 'none';
  question: string;
  /** What was done and what came of it, in one to three short lines. */
  note: string;
}

/** The narrative of the run, shown to the agent newest-last within a token budget. */
export class Diary {
  readonly entries: DiaryEntry[] = [];

  add(entry: DiaryEntry): void {
    this.entries.push(entry);
  }

  static fromJSON(entries: readonly DiaryEntry[]): Diary {
    const diary = new Diary();
    diary.entries.push(...entries);
    return diary;
  }

  toJSON(): DiaryEntry[] {
    return this.entries;
  }

  get length(): number {
    return this.entries.length;
  }
}
