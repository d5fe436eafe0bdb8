import { randomUUID } from 'node:crypto';
import { InputError } from '../core/errors/index.js';
import { checkWatch, runDueWatches, type WatchDeps } from './check-watch.js';
import { parseWatchInput, parseWatchPatch, type WatchInputContext } from './watch-input.js';
import type { Watch, WatchRun } from './watch-record.js';
import { nextRunAfter } from './watch-schedule.js';
import { startWatchScheduler, type WatchScheduler } from './watch-scheduler.js';

/**
 * What the CLI, the API and the MCP tool do with watches, one owner's at a time (`owner`
 * undefined: every owner's, for the CLI on its own machine). Input is checked here, once for all
 * three; a watch of another owner reads as missing.
 */
export interface WatchService {
  add(input: unknown, owner: string): Promise<Watch>;
  list(owner?: string): Promise<Watch[]>;
  /** The watch (by id or a unique prefix of it) with its newest checks first. */
  show(id: string, owner?: string, limit?: number): Promise<{ watch: Watch; runs: WatchRun[] }>;
  /** One check now, awaited; its schedule stays as it was. */
  runNow(id: string, owner?: string): Promise<WatchRun>;
  /**
   * One check now, not awaited (the API's POST /run): resolves once it has started, with the
   * watch and the check's end; a check already going on is a `watch_busy` InputError.
   */
  startNow(id: string, owner?: string): Promise<{ watch: Watch; done: Promise<WatchRun | undefined> }>;
  update(id: string, owner: string | undefined, patch: unknown): Promise<Watch>;
  remove(id: string, owner?: string): Promise<Watch>;
  /** Every due watch checked once, then the notifications due sent: `watch run-due`. */
  runDue(): Promise<WatchRun[]>;
  /** `serve`'s timer. */
  startScheduler(options: {
    checkIntervalMs: number;
    isPaused?: () => boolean;
    onProblem?: (message: string) => void;
  }): WatchScheduler;
}

export function createWatchService(options: { deps: WatchDeps; input: WatchInputContext }): WatchService {
  const { deps } = options;
  const { store } = deps;
  const now = deps.now ?? Date.now;
  const find = async (id: string, owner: string | undefined): Promise<Watch> => {
    const exact = await store.get(id, owner);
    if (exact) return exact;
    const matching =
      id.length >= 4 ? (await store.list(owner)).filter((watch) => watch.id.startsWith(id)) : [];
    if (matching.length === 1) return matching[0]!;
    throw new InputError(`no watch '${id.slice(0, 60)}' (watch list shows the watches kept)`, {
      code: 'watch_not_found',
      param: 'id',
    });
  };
  return {
    async add(body, owner) {
      const input = await parseWatchInput(body, options.input);
      const createdAt = now();
      return store.create({
        id: `watch_${randomUUID().replaceAll('-', '').slice(0, 20)}`,
        owner,
        ...input,
        createdAt,
        // The first check runs at once: it is the baseline the next ones are compared with.
        nextRunAt: createdAt,
      });
    },
    list: (owner) => store.list(owner),
    async show(id, owner, limit = 20) {
      const watch = await find(id, owner);
      return { watch, runs: await store.runs(watch.id, limit) };
    },
    async runNow(id, owner) {
      const watch = await find(id, owner);
      const run = await checkWatch(watch, deps, { scheduled: false });
      if (!run)
        throw new InputError(`a check of watch ${watch.id} is already going on: wait for it to end`, {
          code: 'watch_busy',
        });
      return run;
    },
    async startNow(id, owner) {
      const watch = await find(id, owner);
      let claimed!: (held: boolean) => void;
      const held = new Promise<boolean>((resolve) => {
        claimed = resolve;
      });
      const done = checkWatch(watch, deps, { scheduled: false, onClaim: claimed });
      // A failure before the claim (the store away) rejects `done` before `held` settles.
      if (!(await Promise.race([held, done.then(() => true)])))
        throw new InputError(`a check of watch ${watch.id} is already going on: wait for it to end`, {
          code: 'watch_busy',
        });
      return { watch, done };
    },
    async update(id, owner, body) {
      const watch = await find(id, owner);
      const patch = await parseWatchPatch(body, options.input);
      if (patch.schedule) patch.nextRunAt = nextRunAfter(patch.schedule, now());
      return (await store.update(watch.id, patch)) ?? watch;
    },
    async remove(id, owner) {
      const watch = await find(id, owner);
      await store.delete(watch.id);
      return watch;
    },
    runDue: () => runDueWatches(deps),
    startScheduler: (scheduler) => startWatchScheduler({ deps, ...scheduler }),
  };
}
