/**
 * The fairness rule of the server's slots and queue, apart from how jobs are held (in memory
 * here; a shared queue later), so any job queue applies the same rule with the same answers.
 *
 * - Slots are work-conserving: a key alone may use every slot. When a slot frees, the waiting key
 *   that holds the fewest slots gets it (oldest request first among equals), so a key that holds
 *   more than others gets no new slot while they wait, and busy keys converge to equal shares.
 * - Queue places are capped per key: one key may hold at most `ownerShare` of them, so it cannot
 *   fill the queue and leave another key nothing but 429s (`owner_busy` for the key over its
 *   share, `server_busy` when the queue is full with every key within its share).
 */
export interface FairShareSettings {
  maxConcurrent: number;
  maxQueue: number;
  /** The share (0–1] of queue places (and of per-key resources like MCP sessions) one key may hold. */
  ownerShare: number;
}

/** What the policy needs to know about the jobs held now. */
export interface FairShareState {
  running: number;
  queued: number;
  runningOf(owner: string): number;
  queuedOf(owner: string): number;
}

export type SlotAdmission = 'run' | 'queue' | 'owner_busy' | 'server_busy';

export interface FairSharePolicy {
  /** Queue places one key may hold. */
  readonly ownerQueue: number;
  /** Whether a new job of `owner` runs now, waits, or is refused (and why). */
  admit(owner: string, state: FairShareState): SlotAdmission;
  /** Which of the waiting jobs (owners in arrival order) gets the slot that just freed. */
  pickNext(waitingOwners: readonly string[], state: FairShareState): number;
}

/** At most `share` of `total`, never less than one (a key must be able to do something). */
export function ownerShareOf(total: number, share: number): number {
  return Math.max(1, Math.ceil(total * share));
}

export function createFairSharePolicy(settings: FairShareSettings): FairSharePolicy {
  const ownerQueue = Math.min(settings.maxQueue, ownerShareOf(settings.maxQueue, settings.ownerShare));
  return {
    ownerQueue,
    admit(owner, state) {
      if (state.running < settings.maxConcurrent && state.queued === 0) return 'run';
      // With no share below the whole queue, a full queue is the server's, not this key's.
      if (ownerQueue < settings.maxQueue && state.queuedOf(owner) >= ownerQueue) return 'owner_busy';
      if (state.queued >= settings.maxQueue) return 'server_busy';
      return 'queue';
    },
    pickNext(waitingOwners, state) {
      let best = -1;
      let fewest = Number.POSITIVE_INFINITY;
      waitingOwners.forEach((owner, index) => {
        const held = state.runningOf(owner);
        if (held < fewest) {
          fewest = held;
          best = index;
        }
      });
      return best;
    },
  };
}
