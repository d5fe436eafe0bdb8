/**
 * `npm run docs:errors`: writes docs/error-codes.md from the error-code catalog. `--check` only
 * compares, and exits 1 when the committed file is stale (the test does the same in `npm test`).
 */
import { fileURLToPath } from 'node:url';
import { renderErrorCodesDoc } from './render-error-codes-doc.js';
import { writeGeneratedDoc } from './write-generated-doc.js';

const target = fileURLToPath(new URL('../../docs/error-codes.md', import.meta.url));
writeGeneratedDoc(target, renderErrorCodesDoc(), 'npm run docs:errors');
