import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { extractionConfigSchema } from '../../../config/config-schema.js';
import { htmlInput } from '../../../extraction/worker/content-extractor.js';
import type { ExtractionPool } from '../../../extraction/worker/extraction-pool.js';
import { acquireExtractionPool } from '../../../extraction/worker/shared-extraction-pool.js';
import { smallPageMaxBytes } from '../../../extraction/worker/small-page-extractor.js';
import { createReadExtractor } from './read-extractor.js';

let directory: string;
const leases: Array<{ release(): void }> = [];

beforeEach(async () => {
  directory = await mkdtemp(join(tmpdir(), 'deepsearch-read-extractor-'));
  await writeFile(
    join(directory, 'small.html'),
    '<html><head><title>Small</title></head><body><p>Tides.</p></body></html>',
  );
  await writeFile(join(directory, 'notes.md'), '# Notes\n\nA local note.');
  await writeFile(
    join(directory, 'large.html'),
    `<html><body><p>${'tide '.repeat(smallPageMaxBytes / 4)}</p></body></html>`,
  );
});

afterEach(async () => {
  for (const lease of leases.splice(0)) lease.release();
  await rm(directory, { recursive: true, force: true });
});

/** The shared pool of these settings (its own, by a concurrency no other test uses), held until the test ends. */
function poolOf(concurrency: number) {
  const lease = acquireExtractionPool(extractionConfigSchema.parse({ concurrency }));
  leases.push(lease);
  return lease.extractor as ExtractionPool;
}

async function settle(
  pool: { pids: readonly number[] },
  until: (pids: readonly number[]) => boolean,
): Promise<void> {
  for (let waited = 0; waited < 10_000 && !until(pool.pids); waited += 50) {
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

describe('createReadExtractor', () => {
  it('starts no extraction process when every input is a small local file, and parses it here', async () => {
    const settings = extractionConfigSchema.parse({ concurrency: 5 });
    const pool = poolOf(5);
    const extractor = createReadExtractor(settings, ['small.html', join(directory, 'notes.md')], directory);
    const html = await readFile(join(directory, 'small.html'), 'utf8');
    const url = pathToFileURL(join(directory, 'small.html')).href;
    const content = await extractor.extract(htmlInput({ html, url, providerId: 'file-reader' }));
    expect(content.page).toMatchObject({ title: 'Small', text: expect.stringContaining('Tides.') });
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(pool.pids).toEqual([]);
  });

  it('starts the extraction processes ahead of a large file, a URL or stdin', async () => {
    for (const [concurrency, inputs] of [
      [6, ['small.html', 'large.html']],
      [7, ['https://example.com/page']],
      [8, ['-']],
    ] as const) {
      const pool = poolOf(concurrency);
      createReadExtractor(extractionConfigSchema.parse({ concurrency }), inputs, directory);
      await settle(pool, (pids) => pids.length > 0);
      expect(pool.pids.length, inputs.join(' ')).toBeGreaterThan(0);
    }
  });
});
