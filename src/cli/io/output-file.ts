import { accessSync, constants, existsSync, statSync } from 'node:fs';
import { dirname } from 'node:path';
import { InputError } from '../../core/errors/index.js';

/**
 * Fails before any work when a file named by a flag (`-o`, `--out`, `--report`) cannot be
 * written: its folder is missing or read-only, or it is a folder. A report that took minutes to
 * research is not lost to a typo in its path.
 */
export function assertWritableFile(file: string, flag: string, shown: string): void {
  const refuse = (reason: string) => {
    throw new InputError(`cannot write ${flag} ${shown}: ${reason}`, { param: flag.replace(/^-+/, '') });
  };
  if (existsSync(file)) {
    if (statSync(file).isDirectory()) refuse('it is a folder');
    if (!writable(file)) refuse('permission denied');
    return;
  }
  const folder = dirname(file);
  if (!existsSync(folder) || !statSync(folder).isDirectory()) refuse(`no folder ${folder}`);
  if (!writable(folder)) refuse(`the folder ${folder} is not writable`);
}

function writable(path: string): boolean {
  try {
    accessSync(path, constants.W_OK);
    return true;
  } catch {
    return false;
  }
}
