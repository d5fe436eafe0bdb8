import { AbortedError } from '../core/errors/index.js';
import { anySignal } from '../core/link-signals.js';
import type { OutlineOptions, ResearchOutline } from './create-runtime.js';
import { runRuntime } from './run-runtime.js';
import type { RuntimeProviders } from './runtime-providers.js';

/**
 * Research's plan alone: a research run stopped at its plan event (one planning call, no run
 * recorded), with the plan's estimate; an outline a person can edit and pass back as `plan`.
 */
export async function outlineRuntime(
  runtime: RuntimeProviders,
  topic: string,
  options: OutlineOptions,
): Promise<ResearchOutline> {
  const stop = new AbortController();
  let outline: ResearchOutline | undefined;
  try {
    await runRuntime(runtime, {
      ...options,
      mode: 'research',
      question: topic,
      // Planning only is not a run: nothing to list as cancelled, replay or resume.
      record: false,
      signal: anySignal(stop.signal, options.signal),
      onEvent: (event) => {
        options.onEvent?.(event);
        if (event.type === 'research-plan' && !outline) {
          outline = { plan: event.plan, estimate: event.estimate };
          stop.abort();
        }
      },
    });
  } catch (error) {
    if (!outline || options.signal?.aborted || !AbortedError.isInstance(error)) throw error;
  }
  if (!outline) throw new AbortedError();
  return outline;
}
