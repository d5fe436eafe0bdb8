import type { FileHandle } from 'node:fs/promises';
import { open } from 'node:fs/promises';
import { InputError } from '../../../core/errors/index.js';

export interface FileHead {
  bytes: Uint8Array;
  modified: Date;
  /** The whole file's size. */
  size: number;
  /** The file is longer than what was read. */
  truncated: boolean;
}

/**
 * The first `maxBytes` of a file, sized before anything is read, so a 700 MB file costs no more
 * than the cap. Errors name `shownAs` (the path as the user wrote it) and say why in words.
 */
export async function readFileHead(options: {
  path: string;
  shownAs?: string;
  maxBytes: number;
}): Promise<FileHead> {
  const shown = options.shownAs ?? options.path;
  let handle: FileHandle | undefined;
  try {
    handle = await open(options.path, 'r');
    const info = await handle.stat();
    if (!info.isFile()) throw new InputError(`cannot read ${shown}: not a file`, { code: 'file_unreadable' });
    const buffer = Buffer.alloc(Math.min(info.size, options.maxBytes));
    const { bytesRead } = await handle.read(buffer, 0, buffer.length, 0);
    return {
      bytes: new Uint8Array(buffer.buffer, buffer.byteOffset, bytesRead),
      modified: info.mtime,
      size: info.size,
      truncated: info.size > options.maxBytes,
    };
  } catch (cause) {
    throw InputError.isInstance(cause) ? cause : unreadableFile(shown, cause);
  } finally {
    await handle?.close();
  }
}

export function unreadableFile(path: string, cause: unknown): InputError {
  const code = (cause as { code?: unknown }).code;
  const why =
    code === 'ENOENT'
      ? 'no such file'
      : code === 'EACCES' || code === 'EPERM'
        ? 'permission denied'
        : code === 'EISDIR'
          ? 'not a file'
          : 'not readable';
  return new InputError(`cannot read ${path}: ${why}`, { code: 'file_unreadable', cause });
}
