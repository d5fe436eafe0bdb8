/**
 * `npm run docs:config`: writes docs/configuration.md from the settings table. `--check` only
 * compares, and exits 1 when the committed file is stale (the test does the same in `npm test`).
 */
import { fileURLToPath } from 'node:url';
import { renderConfigurationDoc } from './render-configuration-doc.js';
import { writeGeneratedDoc } from './write-generated-doc.js';

const target = fileURLToPath(new URL('../../docs/configuration.md', import.meta.url));
writeGeneratedDoc(target, renderConfigurationDoc(), 'npm run docs:config');
