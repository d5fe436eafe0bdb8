// Where the evaluation data is: DEEPSEARCH_EVAL_DIR, else shared/eval beside the checkout or beside
// a folder above it, else beside the main checkout of a git worktree (git's common dir), so a
// bench runs from any worktree without --data.
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { dirname, resolve } from 'node:path';

export const evalRoot = process.env.DEEPSEARCH_EVAL_DIR
  ? resolve(process.env.DEEPSEARCH_EVAL_DIR)
  : findEvalRoot();

function findEvalRoot() {
  for (let folder = resolve('..'); ; folder = dirname(folder)) {
    if (existsSync(resolve(folder, 'shared/eval'))) return resolve(folder, 'shared/eval');
    if (dirname(folder) === folder) break;
  }
  try {
    const common = execFileSync('git', ['rev-parse', '--path-format=absolute', '--git-common-dir'], {
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'ignore'],
    }).trim();
    const beside = resolve(dirname(common), '../shared/eval');
    if (existsSync(beside)) return beside;
  } catch {
    // not a git checkout: the default below names the expected place in the error
  }
  return resolve('../shared/eval');
}
