import type { ActionName } from '../../events/deep-search-result.js';

/** No-progress steps in a row after which the actions that made them are switched off for a step. */
export const switchOffAfter = 2;
/** No-progress steps in a row, or in all, after which the run goes to its final answer. */
export const stallInARow = 3;
export const stallInAll = 6;

export interface ProgressStreakSnapshot {
  inARow: ActionName[];
  total: number;
}

/**
 * Steps that did nothing new (a search of queries all searched before, a visit of pages all read
 * before, sub-questions all asked before), in a row and in all. A weak model that repeats itself
 * makes only such steps; the loop switches their actions off, then stops asking it.
 */
export class ProgressStreak {
  private readonly actions: ActionName[] = [];
  private count = 0;

  /** Records a step's outcome; a step that failed or was unusable (`none`) neither counts nor breaks the streak. */
  record(action: ActionName | 'none', noProgress: boolean): void {
    if (action === 'none') return;
    if (!noProgress) {
      this.actions.length = 0;
      return;
    }
    this.actions.push(action);
    this.count++;
  }

  /** No-progress steps since the last step that did something new. */
  get inARow(): number {
    return this.actions.length;
  }

  /** The distinct actions of the current streak, in the order they were first taken. */
  get streakActions(): ActionName[] {
    return [...new Set(this.actions)];
  }

  get total(): number {
    return this.count;
  }

  /** Whether the model has stopped getting anywhere: time for the final answer. */
  get stalled(): boolean {
    return this.inARow >= stallInARow || this.count >= stallInAll;
  }

  toJSON(): ProgressStreakSnapshot {
    return { inARow: [...this.actions], total: this.count };
  }

  static fromJSON(snapshot: ProgressStreakSnapshot | undefined): ProgressStreak {
    const streak = new ProgressStreak();
    if (snapshot) {
      streak.actions.push(...snapshot.inARow);
      streak.count = snapshot.total;
    }
    return streak;
  }
}
