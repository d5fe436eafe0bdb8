import type { EvalQuestion, EvalRecord } from '../../../eval/eval-types.js';
import { formatDuration } from '../../../eval/format-numbers.js';
import type { CliIo } from '../../io/cli-io.js';
import { clipLine, createTerminal, plural, type Style } from '../../io/terminal-style.js';
import { progressBar } from '../../progress/progress-bar.js';

export interface EvalProgressOptions {
  stream: CliIo['stderr'];
  env: CliIo['env'];
  /** Questions selected, those already graded (resumed) included. */
  total: number;
  /** Graded in an earlier run of the same --out file. */
  alreadyDone: number;
  now?: () => number;
  /** Redraws the bar every `intervalMs` until the returned function is called; tests pass their own. */
  schedule?: (tick: () => void, intervalMs: number) => () => void;
}

export interface EvalProgress {
  start(question: EvalQuestion): void;
  finish(record: EvalRecord): void;
  stop(): void;
}

const gradeStyles: Readonly<Record<string, Style>> = {
  correct: 'green',
  incorrect: 'red',
  not_attempted: 'yellow',
  error: 'red',
};

const defaultSchedule = (tick: () => void, intervalMs: number) => {
  const timer = setInterval(tick, intervalMs);
  timer.unref();
  return () => clearInterval(timer);
};

/**
 * One line per finished question; on a terminal, also a bar redrawn in place below them with the
 * counts and an ETA from this session's pace (resumed questions took no time now).
 */
export function createEvalProgress(options: EvalProgressOptions): EvalProgress {
  const terminal = createTerminal(options.stream, options.env);
  const now = options.now ?? Date.now;
  const isTerminal = Boolean(options.stream.isTTY);
  const started = now();
  const counts: Record<string, number> = { correct: 0, incorrect: 0, not_attempted: 0, error: 0 };
  let finishedNow = 0;
  let running = 0;
  let barShown = false;

  const done = () => options.alreadyDone + finishedNow;
  const statusLine = () => {
    const elapsed = now() - started;
    const left = options.total - done();
    const eta = finishedNow > 0 && left > 0 ? ` · ETA ${formatDuration((elapsed / finishedNow) * left)}` : '';
    const failed = counts.error ? ` · ${counts.error} failed` : '';
    // The ETA first: a narrow terminal clips the end of the line.
    return (
      `${progressBar(done(), options.total)} ${done()}/${options.total}${eta} · ${formatDuration(elapsed)} · ` +
      `${counts.correct} correct · ${counts.incorrect} incorrect · ${counts.not_attempted} not attempted${failed} · ` +
      `${running} running`
    );
  };
  const clearBar = () => {
    if (barShown) options.stream.write('\r\x1b[K');
    barShown = false;
  };
  const drawBar = () => {
    if (!isTerminal) return;
    options.stream.write(`\r\x1b[K${clipLine(statusLine(), terminal.width - 1)}`);
    barShown = true;
  };
  const cancel = isTerminal ? (options.schedule ?? defaultSchedule)(drawBar, 1000) : () => undefined;

  return {
    start() {
      running++;
      drawBar();
    },
    finish(record) {
      running = Math.max(0, running - 1);
      finishedNow++;
      const grade = record.grade ?? 'error';
      counts[grade] = (counts[grade] ?? 0) + 1;
      clearBar();
      const label = terminal.style(gradeStyles[grade] ?? 'dim', grade.replace('_', ' '));
      const facts =
        record.status === 'graded'
          ? `${record.confidence} confidence, ${plural(record.steps, 'step')}, ${formatDuration(record.durationMs)}`
          : clipLine(record.error ?? '', 80);
      const question = clipLine(`${record.id}: ${record.question}`, Math.max(40, terminal.width - 50));
      terminal.write(
        `[${done()}/${options.total}] ${label} ${question} ${terminal.style('dim', `(${facts})`)}`,
      );
      drawBar();
    },
    stop() {
      cancel();
      clearBar();
    },
  };
}
