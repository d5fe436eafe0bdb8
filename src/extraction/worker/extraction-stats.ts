import { writeFileSync } from 'node:fs';

/**
 * What the extraction pools of this process did, for `bench:server`: each job's wait for a free
 * process and its round trip, and the bytes sent to and from the processes (the page's bytes in,
 * its markdown and text out). Recorded always (a few numbers per page); written as JSON to the file
 * `DEEPSEARCH_EXTRACTION_STATS_FILE` names when the process exits, only when it is set.
 */
export interface ExtractionStats {
  /** Jobs sent to an extraction process. */
  jobs: number;
  /** Pages parsed in this process instead (small pages of the one-shot `deepsearch read`). */
  inline: number;
  waitMs: number[];
  roundTripMs: number[];
  bytesIn: number;
  bytesOut: number;
}

export const extractionStats: ExtractionStats = {
  jobs: 0,
  inline: 0,
  waitMs: [],
  roundTripMs: [],
  bytesIn: 0,
  bytesOut: 0,
};

/** Samples kept (the latest): enough for percentiles, bounded for a server that runs for weeks. */
const maxSamples = 10_000;

export function recordSample(samples: number[], value: number): void {
  if (samples.length >= maxSamples) samples.shift();
  samples.push(value);
}

const statsFile = process.env.DEEPSEARCH_EXTRACTION_STATS_FILE;
if (statsFile) {
  process.once('exit', () => {
    try {
      writeFileSync(statsFile, JSON.stringify(extractionStats));
    } catch {
      // A benchmark's file that cannot be written: nothing to report.
    }
  });
}
