import { readdir, readFile } from 'node:fs/promises';

/**
 * Whether a process runs: it exists and is no zombie. A killed child whose parent has exited may
 * stay a zombie until something reaps it, and signalling a zombie succeeds (Linux /proc; elsewhere
 * only existence is checked).
 */
export async function isProcessRunning(pid: number): Promise<boolean> {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  const stat = await readFile(`/proc/${pid}/stat`, 'utf8').catch(() => undefined);
  return stat === undefined ? process.platform !== 'linux' : procFields(stat)[0] !== 'Z';
}

/** The processes whose parent is `pid` (Linux /proc). */
export async function childPids(pid: number): Promise<number[]> {
  const children: number[] = [];
  for (const entry of await readdir('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    const stat = await readFile(`/proc/${entry}/stat`, 'utf8').catch(() => '');
    if (stat && Number(procFields(stat)[1]) === pid) children.push(Number(entry));
  }
  return children;
}

/** CPU seconds a process has used (user and system; Linux /proc), 0 when it is gone. */
export async function cpuSeconds(pid: number): Promise<number> {
  const stat = await readFile(`/proc/${pid}/stat`, 'utf8').catch(() => undefined);
  if (!stat) return 0;
  const fields = procFields(stat);
  // utime and stime, in clock ticks: 100 a second on Linux.
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

/** The fields of /proc/<pid>/stat after the command, which is in parentheses and may hold spaces. */
function procFields(stat: string): string[] {
  return stat.slice(stat.lastIndexOf(')') + 2).split(' ');
}
