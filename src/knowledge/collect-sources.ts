import { readdir, stat } from 'node:fs/promises';
import { join, relative, resolve, sep } from 'node:path';
import { globToRegExp, matchesAny } from './glob-pattern.js';
import { isSupportedDocument } from './read-document.js';

export type SourceItem = { kind: 'file'; path: string } | { kind: 'url'; url: string };

export interface SourceProblem {
  source: string;
  reason: string;
}

// Hidden folders and dependency trees are never documents someone meant to add.
const skippedFolders = new Set(['node_modules', '.git', '.hg', '.svn']);

/**
 * Files and URLs named on the command line, folders walked recursively. Inside a folder only
 * supported files count, filtered by the include globs (when any) and the exclude globs, both
 * matched against the path relative to that folder. A file named explicitly is taken as is (an
 * unsupported type is then reported, not silently dropped); a missing path is a problem too.
 */
export async function collectSources(options: {
  inputs: readonly string[];
  cwd: string;
  include?: readonly string[];
  exclude?: readonly string[];
}): Promise<{ items: SourceItem[]; problems: SourceProblem[] }> {
  const include = (options.include ?? []).map(globToRegExp);
  const exclude = (options.exclude ?? []).map(globToRegExp);
  const items: SourceItem[] = [];
  const problems: SourceProblem[] = [];
  const seen = new Set<string>();
  const add = (item: SourceItem) => {
    const key = item.kind === 'file' ? item.path : item.url;
    if (seen.has(key)) return;
    seen.add(key);
    items.push(item);
  };
  for (const input of options.inputs) {
    if (/^https?:\/\//i.test(input)) {
      add({ kind: 'url', url: input });
      continue;
    }
    const path = resolve(options.cwd, input);
    const info = await stat(path).catch(() => undefined);
    if (!info) problems.push({ source: input, reason: 'no such file or folder' });
    else if (info.isDirectory()) {
      for (const file of await walk(path)) {
        const relativePath = relative(path, file).split(sep).join('/');
        if (!isSupportedDocument(file)) continue;
        if (include.length > 0 && !matchesAny(relativePath, include)) continue;
        if (matchesAny(relativePath, exclude)) continue;
        add({ kind: 'file', path: file });
      }
    } else add({ kind: 'file', path });
  }
  return { items, problems };
}

async function walk(folder: string): Promise<string[]> {
  const files: string[] = [];
  const entries = await readdir(folder, { withFileTypes: true });
  entries.sort((a, b) => a.name.localeCompare(b.name));
  for (const entry of entries) {
    if (entry.name.startsWith('.') || skippedFolders.has(entry.name)) continue;
    const path = join(folder, entry.name);
    if (entry.isDirectory()) files.push(...(await walk(path)));
    else if (entry.isFile()) files.push(path);
  }
  return files;
}
