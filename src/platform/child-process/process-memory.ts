import { readFile } from 'node:fs/promises';

/**
 * Resident memory of a process in bytes, from /proc on Linux; undefined elsewhere or when the
 * process is gone. Counts what the kernel holds for the process (V8's heap, ArrayBuffers and
 * native allocations alike), which a worker thread's resourceLimits do not.
 */
export async function residentBytes(pid: number): Promise<number | undefined> {
  if (process.platform !== 'linux') return undefined;
  try {
    const status = await readFile(`/proc/${pid}/status`, 'utf8');
    const match = /^VmRSS:\s+(\d+)\s+kB/m.exec(status);
    return match ? Number(match[1]) * 1024 : undefined;
  } catch {
    return undefined;
  }
}
