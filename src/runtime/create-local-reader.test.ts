import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createInProcessExtractor } from '../extraction/worker/content-extractor.js';
import { createTestConfig } from '../testing/test-config.js';
import { createLocalReader } from './create-local-reader.js';

let directory: string;
beforeEach(async () => {
  directory = await mkdtemp(join(tmpdir(), 'deepsearch-local-reader-'));
  await writeFile(
    join(directory, 'tides.html'),
    '<html><head><title>Tides</title></head><body><p>High tide at 12:04.</p></body></html>',
  );
});
afterEach(() => rm(directory, { recursive: true, force: true }));

const reader = (reader: Record<string, unknown>) =>
  createLocalReader({ config: createTestConfig({ reader }), extractor: createInProcessExtractor() });

describe('createLocalReader', () => {
  it('reads a file the config allows, as the runtime reader does', async () => {
    const file = join(directory, 'tides.html');
    const page = await reader({ allowFiles: true, fileRoots: [file] }).read(pathToFileURL(file).href);
    expect(page).toMatchObject({ title: 'Tides', url: pathToFileURL(file).href, contentType: 'text/html' });
    expect(page.text).toContain('High tide at 12:04.');
  });

  it('refuses files when they are off, outside the roots, and every other scheme', async () => {
    const file = pathToFileURL(join(directory, 'tides.html')).href;
    await expect(reader({ allowFiles: false }).read(file)).rejects.toThrow(/local files are off/);
    await expect(
      reader({ allowFiles: true, fileRoots: [join(directory, 'other')] }).read(file),
    ).rejects.toThrow(/outside the folders local files may be read from/);
    await expect(reader({ allowFiles: true }).read('https://example.com/')).rejects.toThrow(
      /no reader for https: sources \(readable: file:\)/,
    );
  });
});
