import type { ActionName } from '../../events/deep-search-result.js';
import type { RunContext } from '../run-context.js';
import { stallInAll, stallInARow, switchOffAfter } from '../state/progress-streak.js';

/**
 * Counts a step that did nothing new (`noProgress` says why) and tells the person following the
 * run. From the second such step in a row, the actions of the streak are switched off for the next
 * step, so the model has to try something else; a stalled run goes to its final answer (the loop
 * checks `state.progress.stalled`). Returns what the diary line should add, if anything.
 */
export function noteProgress(
  context: RunContext,
  action: ActionName | 'none',
  noProgress: string | undefined,
): string | undefined {
  const { state } = context;
  state.progress.record(action, noProgress !== undefined);
  if (noProgress === undefined || action === 'none') return undefined;
  const { inARow, total } = state.progress;
  // Short lines with the reason first: the person reads them as the run goes.
  const warn = (message: string) => context.emit({ type: 'warning', step: context.step, message });
  if (state.progress.stalled) {
    const why =
      inARow >= stallInARow
        ? `${inARow} steps in a row found nothing new`
        : `${total} steps found nothing new (of ${stallInAll} allowed)`;
    warn(`no progress: ${why}; answering from what was found`);
    return `${capitalise(why)}: the run goes to its final answer.`;
  }
  if (inARow < switchOffAfter) {
    warn(`no progress: ${noProgress}`);
    return undefined;
  }
  const actions = state.progress.streakActions;
  for (const name of actions) state.disabled.add(name);
  const names = `${actions.join(' and ')} ${actions.length === 1 ? 'is' : 'are'}`;
  warn(`no progress: ${noProgress}; ${names} off for a step`);
  return `${inARow} steps in a row found nothing new, so ${names} switched off for the next step.`;
}

function capitalise(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}
