import { AbortedError } from '../../core/errors/index.js';

interface Waiter {
  priority: number;
  order: number;
  grant: () => void;
}

/**
 * At most `concurrency` hops run at once, and a waiting hop with a lower number goes first: every
 * section gets its first hop before any section its third, so later sections are not left with
 * what earlier ones did not use.
 */
export class HopSlots {
  private readonly concurrency: number;
  private running = 0;
  private counter = 0;
  private readonly waiting: Waiter[] = [];

  constructor(concurrency: number) {
    this.concurrency = Math.max(1, concurrency);
  }

  /** Waits for a slot; call the returned function when the hop is over. */
  async acquire(priority: number, signal?: AbortSignal): Promise<() => void> {
    if (signal?.aborted) throw new AbortedError(undefined, { cause: signal.reason });
    if (this.running < this.concurrency && this.waiting.length === 0) {
      this.running++;
      return this.releaser();
    }
    await new Promise<void>((resolve, reject) => {
      const waiter: Waiter = { priority, order: this.counter++, grant: resolve };
      this.waiting.push(waiter);
      this.waiting.sort((a, b) => a.priority - b.priority || a.order - b.order);
      signal?.addEventListener(
        'abort',
        () => {
          const at = this.waiting.indexOf(waiter);
          if (at === -1) return;
          this.waiting.splice(at, 1);
          reject(new AbortedError(undefined, { cause: signal.reason }));
        },
        { once: true },
      );
    });
    return this.releaser();
  }

  private releaser(): () => void {
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const next = this.waiting.shift();
      if (next) next.grant();
      else this.running--;
    };
  }
}
