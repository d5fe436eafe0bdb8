import { realpath } from 'node:fs/promises';
import { resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { BlockedUrlError, throwIfAborted } from '../../../core/errors/index.js';
import type { ContentExtractor } from '../../../extraction/worker/content-extractor.js';
import type { Page, PageReader, ReadOptions } from '../../spec/page-reader.js';
import { contentTypeForPath, localBytesToPage } from './local-page.js';
import { readFileHead, unreadableFile } from './read-file-head.js';

export interface FileReaderSettings {
  /** Off by default: a run reads local files only when its config allows it (reader.allowFiles). */
  allowFiles?: boolean;
  /** Folders files may be read from (symlinks resolved); empty: any file this process may read. */
  roots?: readonly string[];
  /** Bytes read at most; a longer file is cut there. Default 5 MiB. */
  maxBytes?: number;
  /** Where relative roots are resolved from; default the process's working directory. */
  cwd?: string;
  /** Parses the file; default the default settings' extraction pool. */
  extractor?: ContentExtractor;
}

const providerId = 'file-reader';

/**
 * Reads `file:` sources: the local document, by content type, with the builtin reader's
 * extraction. Refuses (BlockedUrlError) when local files are off or the file lies outside the
 * allowed folders, judged on the real path so a symlink cannot lead out of them.
 */
export function createFileReader(settings: FileReaderSettings = {}): PageReader {
  const maxBytes = settings.maxBytes ?? 5 * 1024 * 1024;
  const cwd = settings.cwd ?? process.cwd();
  let roots: Promise<string[]> | undefined;
  return {
    specificationVersion: 'v1',
    id: 'file',
    async read(url: string, options: ReadOptions = {}): Promise<Page> {
      throwIfAborted(options.signal);
      const normal = toFileUrl(url);
      if (!normal) {
        throw new BlockedUrlError(`cannot read ${JSON.stringify(url)}: not a local file URL (file:///...)`, {
          url,
        });
      }
      const path = fileURLToPath(normal);
      if (!settings.allowFiles) {
        throw new BlockedUrlError(
          `local files are off: allow them with --allow-files, DEEPSEARCH_ALLOW_FILES=true or reader.allowFiles (refused ${path})`,
          { url },
        );
      }
      roots ??= resolveRoots(settings.roots ?? [], cwd);
      const allowed = await roots;
      const refuseOutside = () =>
        new BlockedUrlError(
          `outside the folders local files may be read from (--file-roots ${(settings.roots ?? []).join(',')}): refused ${path}`,
          { url },
        );
      // Judged on the path as asked before anything on disk is touched, so the answer for a path
      // outside the roots is the same whether it exists or not; then again on the real path, so
      // a symlink inside cannot lead out.
      if (!isInside(path, allowed)) throw refuseOutside();
      const real = await realpath(path).catch((cause: unknown) => {
        throw unreadableFile(path, cause);
      });
      if (!isInside(real, allowed)) throw refuseOutside();
      const { bytes, modified, truncated } = await readFileHead({ path: real, shownAs: path, maxBytes });
      throwIfAborted(options.signal);
      return localBytesToPage(
        {
          requestedUrl: url,
          url: normal,
          bytes,
          contentType: contentTypeForPath(path),
          lastModified: modified.toUTCString(),
          providerId,
          truncated,
        },
        settings.extractor,
      );
    },
  };
}

/** What reader.* says of local files (allowFiles, fileRoots, maxBytes), and the extractor. */
export interface ConfiguredFileReaderSettings {
  allowFiles: boolean;
  fileRoots: readonly string[];
  maxBytes: number;
  extractor?: ContentExtractor;
}

/** The file reader reader.* configures: the runtime's reader of `file:` sources. */
export function createConfiguredFileReader(settings: ConfiguredFileReaderSettings): PageReader {
  return createFileReader({
    allowFiles: settings.allowFiles,
    roots: settings.fileRoots,
    maxBytes: settings.maxBytes,
    extractor: settings.extractor,
  });
}

/** The file URL without query or fragment; undefined for anything else, or one naming another machine. */
function toFileUrl(url: string): string | undefined {
  try {
    const parsed = new URL(url);
    if (parsed.protocol !== 'file:' || parsed.hostname !== '') return undefined;
    parsed.search = '';
    parsed.hash = '';
    return parsed.href;
  } catch {
    return undefined;
  }
}

/** Each root as written (made absolute) and its real path, when it has one; empty: no roots. */
async function resolveRoots(roots: readonly string[], cwd: string): Promise<string[]> {
  // A root that does not exist (yet) is kept as written: nothing inside it can be read anyway.
  const resolved = await Promise.all(
    roots.map(async (root) => {
      const absolute = resolve(cwd, root);
      return [absolute, await realpath(absolute).catch(() => absolute)];
    }),
  );
  return [...new Set(resolved.flat())];
}

/** No roots: anywhere. */
function isInside(path: string, roots: readonly string[]): boolean {
  return roots.length === 0 || roots.some((root) => path === root || path.startsWith(`${root}${sep}`));
}
