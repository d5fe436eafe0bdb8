/**
 * `npm run docs:errors`: writes docs/error-codes.md from the error-code catalog. `--check` only
 * compares, and exits 1 when the committed file is stale (the test does the same in `npm test`).
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { renderErrorCodesDoc } from './render-error-codes-doc.js';

const target = fileURLToPath(new URL('../../docs/error-codes.md', import.meta.url));
const generated = renderErrorCodesDoc();
if (process.argv.includes('--check')) {
  const current = readFileSync(target, 'utf8');
  if (current !== generated) {
    console.error('docs/error-codes.md is out of date: run npm run docs:errors');
    process.exit(1);
  }
  console.log('docs/error-codes.md is up to date');
} else {
  writeFileSync(target, generated);
  console.log(`wrote ${target}`);
}
