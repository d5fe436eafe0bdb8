import { appendFileSync, existsSync, readFileSync, truncateSync } from 'node:fs';
import { InputError } from '../core/errors/index.js';
import type { EvalRecord } from './eval-types.js';

export interface StoredResults {
  records: EvalRecord[];
  /** Bytes of the last line cut off by a crash mid-write (dropped by `repairResultsFile`). */
  partialTail: number;
}

/**
 * The records already in a results file. A crash (even SIGKILL) can only cut the last line short,
 * since each record is one write: that line is reported, not an error. Any other bad line is.
 */
export function readResultsFile(file: string): StoredResults {
  if (!existsSync(file)) return { records: [], partialTail: 0 };
  const content = readFileSync(file, 'utf8');
  const complete = content.endsWith('\n') ? content : content.slice(0, content.lastIndexOf('\n') + 1);
  const records: EvalRecord[] = [];
  complete.split('\n').forEach((line, index) => {
    if (!line.trim()) return;
    try {
      const record = JSON.parse(line) as EvalRecord;
      if (typeof record?.id !== 'string' || typeof record.status !== 'string')
        throw new Error('not a result');
      records.push(record);
    } catch {
      throw new InputError(
        `${file} line ${index + 1} is not a deepsearch eval result: choose another --out file`,
      );
    }
  });
  return { records, partialTail: Buffer.byteLength(content) - Buffer.byteLength(complete) };
}

/** Drops a last line cut short by a crash, so appended records start on a line of their own. */
export function repairResultsFile(file: string, stored: StoredResults): void {
  if (stored.partialTail === 0) return;
  const size = Buffer.byteLength(readFileSync(file, 'utf8'));
  truncateSync(file, size - stored.partialTail);
}

/** Appends one record as one line, synchronously: a record is either in the file whole or not at all. */
export function appendResult(file: string, record: EvalRecord): void {
  appendFileSync(file, `${JSON.stringify(record)}\n`);
}

/** The questions --resume skips: those with a grade (a failed run or judge is tried again). */
export function gradedIds(records: readonly EvalRecord[]): Set<string> {
  return new Set(records.filter((record) => record.status === 'graded').map((record) => record.id));
}

/** The last record of each id, in the order the ids were first seen. */
export function latestRecords(records: readonly EvalRecord[]): EvalRecord[] {
  const byId = new Map<string, EvalRecord>();
  for (const record of records) {
    // A graded record is never replaced by a later failure of the same question.
    const earlier = byId.get(record.id);
    if (earlier?.status === 'graded' && record.status !== 'graded') continue;
    byId.set(record.id, record);
  }
  return [...byId.values()];
}
