import type { DownloadProgress } from '../../embedded-model/download-model.js';
import { formatBytes } from '../../embedded-model/download-model.js';
import type { CliIo } from '../io/cli-io.js';
import { progressBar } from './progress-bar.js';

/** "[#####.....] 1.20 GB / 2.50 GB · 35.2 MB/s · 0:37 left" */
export function formatDownloadProgress(progress: DownloadProgress): string {
  const { received, total, bytesPerSecond } = progress;
  const size = total ? `${formatBytes(received)} / ${formatBytes(total)}` : formatBytes(received);
  const rate = bytesPerSecond > 0 ? ` · ${formatBytes(bytesPerSecond)}/s` : '';
  const left =
    total && bytesPerSecond > 0 ? ` · ${formatDuration((total - received) / bytesPerSecond)} left` : '';
  return `${total ? `${progressBar(received, total)} ` : ''}${size}${rate}${left}`;
}

export function formatDuration(seconds: number): string {
  const whole = Math.max(0, Math.round(seconds));
  const hours = Math.floor(whole / 3600);
  const minutes = Math.floor((whole % 3600) / 60);
  const secs = String(whole % 60).padStart(2, '0');
  return hours > 0 ? `${hours}:${String(minutes).padStart(2, '0')}:${secs}` : `${minutes}:${secs}`;
}

/**
 * The progress of a download on stderr: one line redrawn in place (at most 10 times a second) in
 * a terminal; elsewhere a line per tenth of the file, so logs stay short.
 */
export function createDownloadProgress(io: CliIo, options: { quiet?: boolean } = {}) {
  const tty = Boolean(io.stderr.isTTY);
  let lastDraw = 0;
  let lastTenth = -1;
  let drawn = false;
  return {
    update(progress: DownloadProgress): void {
      if (options.quiet) return;
      const line = formatDownloadProgress(progress);
      if (tty) {
        const now = performance.now();
        if (now - lastDraw < 100 && progress.received !== progress.total) return;
        lastDraw = now;
        drawn = true;
        io.stderr.write(`\r\x1b[2K${line}`);
        return;
      }
      const tenth = progress.total ? Math.floor((progress.received / progress.total) * 10) : -1;
      if (tenth > lastTenth) {
        lastTenth = tenth;
        io.stderr.write(`${line}\n`);
      }
    },
    done(): void {
      if (tty && drawn) io.stderr.write('\n');
      drawn = false;
    },
  };
}
