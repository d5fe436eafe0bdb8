import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makePdf } from '../../../../test/helpers/make-pdf.js';
import { loadConfig } from '../../../config/load-config.js';
import { BlockedUrlError, InputError } from '../../../core/errors/index.js';
import { createPageReader } from '../reader-registry.js';
import { createSchemeReader } from '../scheme-reader.js';
import { createFileReader } from './file-reader.js';

let directory: string;
beforeEach(async () => {
  directory = await mkdtemp(join(tmpdir(), 'deepsearch-file-reader-'));
});
afterEach(() => rm(directory, { recursive: true, force: true }));

const fileUrl = (name: string) => pathToFileURL(join(directory, name)).href;

describe('createFileReader', () => {
  it('reads HTML, markdown, text, JSON and PDF files by extension with the web extraction', async () => {
    await writeFile(
      join(directory, 'a.html'),
      '<html><head><title>Alpha</title></head><body><nav>Menu</nav><article><h1>Alpha</h1><p>Alpha is the first letter of the Greek alphabet, used since antiquity.</p></article></body></html>',
    );
    await writeFile(join(directory, 'b.md'), '# Beta notes\n\nBeta is **second**.');
    await writeFile(join(directory, 'c.txt'), 'Gamma plain text.');
    await writeFile(join(directory, 'd.json'), '{"delta":4}');
    await writeFile(join(directory, 'e.pdf'), makePdf({ pages: [['Epsilon figures']] }));
    const reader = createFileReader({ allowFiles: true });
    const html = await reader.read(fileUrl('a.html'));
    expect(html).toMatchObject({ url: fileUrl('a.html'), title: 'Alpha', contentType: 'text/html' });
    expect(html.text).toContain('Alpha is the first letter');
    expect(html.text).not.toContain('Menu');
    expect(html.modifiedAt).toMatch(/^\d{4}-\d\d-\d\dT/);
    expect(await reader.read(fileUrl('b.md'))).toMatchObject({
      title: 'Beta notes',
      contentType: 'text/markdown',
    });
    expect((await reader.read(fileUrl('c.txt'))).text).toBe('Gamma plain text.');
    expect((await reader.read(fileUrl('d.json'))).text).toBe('{\n  "delta": 4\n}');
    expect((await reader.read(fileUrl('e.pdf'))).text).toContain('Epsilon figures');
  });

  it('keys a page by its canonical file URL, without query or fragment', async () => {
    await writeFile(join(directory, 'n.txt'), 'Notes.');
    const page = await createFileReader({ allowFiles: true }).read(`${fileUrl('n.txt')}?x=1#top`);
    expect(page.url).toBe(fileUrl('n.txt'));
    expect(page.requestedUrl).toBe(`${fileUrl('n.txt')}?x=1#top`);
  });

  it('refuses every file unless local files are allowed, naming the setting', async () => {
    await writeFile(join(directory, 'n.txt'), 'Notes.');
    const read = createFileReader({}).read(fileUrl('n.txt'));
    await expect(read).rejects.toBeInstanceOf(BlockedUrlError);
    await expect(createFileReader({}).read(fileUrl('n.txt'))).rejects.toThrow(/--allow-files/);
  });

  it('reads only inside the allowed folders, judged on the real path (no way out through a symlink)', async () => {
    const inside = join(directory, 'inside');
    const outside = join(directory, 'outside');
    await mkdir(inside);
    await mkdir(outside);
    await writeFile(join(inside, 'ok.txt'), 'Inside.');
    await writeFile(join(outside, 'secret.txt'), 'Secret.');
    await symlink(join(outside, 'secret.txt'), join(inside, 'link.txt'));
    const reader = createFileReader({ allowFiles: true, roots: ['inside'], cwd: directory });
    expect((await reader.read(fileUrl('inside/ok.txt'))).text).toBe('Inside.');
    await expect(reader.read(fileUrl('outside/secret.txt'))).rejects.toThrow(/outside the folders/);
    await expect(reader.read(fileUrl('inside/link.txt'))).rejects.toThrow(/outside the folders/);
    await expect(reader.read(fileUrl('inside/../outside/secret.txt'))).rejects.toThrow(/outside the folders/);
  });

  it('gives one refusal for any path outside the folders, whether it exists or not', async () => {
    const inside = join(directory, 'inside');
    await mkdir(inside);
    await writeFile(join(directory, 'exists.txt'), 'Secret.');
    const reader = createFileReader({ allowFiles: true, roots: ['inside'], cwd: directory });
    const refusal = async (name: string) => {
      const error = (await reader.read(fileUrl(name)).catch((caught: unknown) => caught)) as Error;
      expect(error).toBeInstanceOf(BlockedUrlError);
      return error.message.replace(name, 'NAME');
    };
    expect(await refusal('exists.txt')).toBe(await refusal('nothing-here.txt'));
    expect(await refusal('exists.txt')).toBe(await refusal('no/such/folder.txt'));
    // Inside the folders, a missing file is still said to be missing.
    await expect(reader.read(fileUrl('inside/missing.txt'))).rejects.toThrow(/no such file/);
  });

  it('says what is wrong with a missing file, a folder or a URL that is not a local file', async () => {
    const reader = createFileReader({ allowFiles: true });
    const missing = reader.read(fileUrl('missing.md'));
    await expect(missing).rejects.toBeInstanceOf(InputError);
    await expect(reader.read(fileUrl('missing.md'))).rejects.toThrow(/missing\.md: no such file/);
    await expect(reader.read(pathToFileURL(directory).href)).rejects.toThrow(/not a file/);
    await expect(reader.read('file://fileserver/share/a.txt')).rejects.toThrow(/not a local file URL/);
    await expect(reader.read('https://example.com/')).rejects.toThrow(/not a local file URL/);
  });

  it('reads at most maxBytes of a file and says so, naming the limit', async () => {
    await writeFile(join(directory, 'big.txt'), 'x'.repeat(5000));
    const page = await createFileReader({ allowFiles: true, maxBytes: 100 }).read(fileUrl('big.txt'));
    const [text, note] = page.text.split('\n\n');
    expect(text).toBe('x'.repeat(100));
    expect(note).toBe('[only the first 100 bytes were read (limit: DEEPSEARCH_READER_MAX_BYTES)]');
  });

  it('refuses a PDF longer than maxBytes instead of reading its first part, naming the limit', async () => {
    await writeFile(join(directory, 'big.pdf'), makePdf({ pages: [['A page of a PDF too long to read.']] }));
    await expect(
      createFileReader({ allowFiles: true, maxBytes: 100 }).read(fileUrl('big.pdf')),
    ).rejects.toThrow(
      /big\.pdf is larger than 100 bytes, the most that is read \(limit: DEEPSEARCH_READER_MAX_BYTES\)/,
    );
  });
});

describe('createSchemeReader and the registry', () => {
  it('hands each source to the reader of its scheme and refuses schemes it has no reader for', async () => {
    await writeFile(join(directory, 'n.txt'), 'Local notes.');
    const config = loadConfig({ flags: { 'allow-files': true, 'file-roots': directory } });
    expect(config.reader).toMatchObject({ allowFiles: true, fileRoots: [directory] });
    const reader = createPageReader(config.reader);
    expect(reader.schemes).toEqual(['http:', 'https:', 'file:']);
    expect((await reader.read(fileUrl('n.txt'))).text).toBe('Local notes.');
    await expect(reader.read('ftp://example.com/a')).rejects.toThrow(
      'no reader for ftp: sources (readable: http:, https:, file:)',
    );
    await expect(reader.read('kb:notes/a')).rejects.toBeInstanceOf(BlockedUrlError);
  });

  it("passes on the web reader's prefetch flag and prepares every reader", async () => {
    const builtin = createPageReader(loadConfig({}).reader);
    expect(builtin.freeToPrefetch).toBe(true);
    await expect(builtin.prepare?.()).resolves.toBeUndefined();
    expect(createPageReader(loadConfig({ flags: { reader: 'jina' } }).reader).freeToPrefetch).toBe(false);
    const prepared: string[] = [];
    const reader = createSchemeReader({
      readers: {
        'https:': {
          specificationVersion: 'v1',
          id: 'web',
          read: () => Promise.reject(new Error('unused')),
          prepare: async () => void prepared.push('web'),
        },
        'kb:': {
          specificationVersion: 'v1',
          id: 'kb',
          read: () => Promise.reject(new Error('unused')),
          prepare: async () => void prepared.push('kb'),
        },
      },
    });
    await reader.prepare();
    expect(prepared.sort()).toEqual(['kb', 'web']);
  });

  it('reads files only when the config allows them', async () => {
    await writeFile(join(directory, 'n.txt'), 'Local notes.');
    const reader = createPageReader(loadConfig({}).reader);
    await expect(reader.read(fileUrl('n.txt'))).rejects.toThrow(/local files are off/);
  });

  it('takes more schemes through register (how the knowledge base adds kb:)', async () => {
    const reader = createSchemeReader({ readers: {} });
    reader.register('kb', {
      specificationVersion: 'v1',
      id: 'kb',
      read: async (url) => ({
        requestedUrl: url,
        url,
        title: 'Note',
        markdown: 'Kept.',
        text: 'Kept.',
        links: [],
        contentType: 'text/markdown',
      }),
    });
    expect(reader.schemes).toEqual(['kb:']);
    expect((await reader.read('KB:notes/a')).text).toBe('Kept.');
  });
});
