/**
 * `npm run docs:config`: writes docs/configuration.md from the settings table. `--check` only
 * compares, and exits 1 when the committed file is stale (the test does the same in `npm test`).
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { renderConfigurationDoc } from './render-configuration-doc.js';

const target = fileURLToPath(new URL('../../docs/configuration.md', import.meta.url));
const generated = renderConfigurationDoc();
if (process.argv.includes('--check')) {
  const current = readFileSync(target, 'utf8');
  if (current !== generated) {
    console.error('docs/configuration.md is out of date: run npm run docs:config');
    process.exit(1);
  }
  console.log('docs/configuration.md is up to date');
} else {
  writeFileSync(target, generated);
  console.log(`wrote ${target}`);
}
