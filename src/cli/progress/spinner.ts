import type { AgentEvent } from '../../events/agent-events.js';

const frames = ['⠋', '⠙', '⠹', '⠸', '⠼', '⠴', '⠦', '⠧', '⠇', '⠏'];

export interface SpinnerOptions {
  write: (text: string) => void;
  now?: () => number;
  /** Calls `tick` every `intervalMs` until the returned function is called; tests drive ticks by hand. */
  schedule?: (tick: () => void, intervalMs: number) => () => void;
}

export interface Spinner {
  /** Shows `label` with the seconds since this call. */
  start(label: string): void;
  /** Erases the spinner's line so other output starts on a clean one. */
  clear(): void;
  stop(): void;
  tick(): void;
}

const defaultSchedule = (tick: () => void, intervalMs: number) => {
  const timer = setInterval(tick, intervalMs);
  timer.unref();
  return () => clearInterval(timer);
};

/** One line redrawn in place (carriage return, erase line): only for a terminal, never in logs. */
export function createSpinner(options: SpinnerOptions): Spinner {
  const now = options.now ?? Date.now;
  let label: string | undefined;
  let since = 0;
  let frame = 0;
  let shown = false;
  let cancel: (() => void) | undefined;
  const spinner: Spinner = {
    start(next) {
      label = next;
      since = now();
      cancel ??= (options.schedule ?? defaultSchedule)(() => spinner.tick(), 100);
    },
    clear() {
      if (shown) options.write('\r\x1b[K');
      shown = false;
    },
    stop() {
      spinner.clear();
      cancel?.();
      cancel = undefined;
      label = undefined;
    },
    tick() {
      if (label === undefined) return;
      const seconds = ((now() - since) / 1000).toFixed(1);
      options.write(`\r\x1b[K${frames[frame++ % frames.length]} ${label} ${seconds}s`);
      shown = true;
    },
  };
  return spinner;
}

/** What the run is waiting for after `event`: a search, pages, or (otherwise) the LLM. */
export function waitingLabel(event: AgentEvent): string | undefined {
  if (event.type === 'run-end') return undefined;
  if (event.type === 'search-start') return 'searching';
  if (event.type === 'read-start') return 'reading';
  return 'waiting on the LLM';
}

/**
 * Wraps a progress listener with a spinner and the time spent waiting since the last event. The
 * caller decides it is a terminal (stderr.isTTY): piped or CI output never gets one.
 */
export function withSpinner(
  listener: ((event: AgentEvent) => void) | undefined,
  spinner: Spinner,
): { onEvent: (event: AgentEvent) => void; stop: () => void } {
  spinner.start('waiting on the LLM');
  return {
    onEvent(event) {
      // Streamed text prints nothing here and means the LLM is answering: the clock keeps running.
      if (event.type === 'think-delta' || event.type === 'answer-delta') return listener?.(event);
      // A draft grows on the spinner's line: the spinner steps aside until the next event.
      if (event.type === 'answer-draft-delta') {
        spinner.stop();
        return listener?.(event);
      }
      spinner.clear();
      listener?.(event);
      const label = waitingLabel(event);
      if (label === undefined) spinner.stop();
      else spinner.start(label);
    },
    stop: () => spinner.stop(),
  };
}
