import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { appShellPage } from '../../../../test/helpers/app-shell-page.js';
import { startFakeWeb } from '../../../../test/helpers/fake-web-server.js';
import { makePdf } from '../../../../test/helpers/make-pdf.js';
import { extractionStats } from '../../../extraction/worker/extraction-stats.js';
import type { FakeHttpServer } from '../../../testing/fake-http-server.js';
import type { CliIo } from '../../io/cli-io.js';
import { runCli } from '../../run-cli.js';

let web: FakeHttpServer | undefined;
let directory: string;

beforeEach(async () => {
  directory = await mkdtemp(join(tmpdir(), 'deepsearch-read-'));
});

afterEach(async () => {
  await web?.close();
  web = undefined;
  await rm(directory, { recursive: true, force: true });
});

const page = (title: string, sentence: string) =>
  `<html><head><title>${title}</title><meta property="article:published_time" content="2024-05-01T00:00:00Z"></head><body><nav><a href="/">Home</a></nav><article><h1>${title}</h1><p>${sentence} The paragraph goes on long enough to be the main content of the page.</p><p>See <a href="/next">the next page</a>.</p></article></body></html>`;

async function run(args: string[], stdin = ''): Promise<{ code: number; stdout: string; stderr: string }> {
  let stdout = '';
  let stderr = '';
  const io: CliIo = {
    argv: ['node', 'deepsearch', ...args],
    env: { DEEPSEARCH_ALLOW_PRIVATE_NETWORK: 'true' },
    cwd: directory,
    stdout: { write: (text: string) => (stdout += text) },
    stderr: { write: (text: string) => (stderr += text) },
    stdin: Object.assign(Readable.from(stdin ? [Buffer.from(stdin)] : []), { isTTY: false }),
    signal: new AbortController().signal,
  };
  const code = await runCli(io);
  return { code, stdout, stderr };
}

describe('deepsearch read', () => {
  it('prints the main content of a URL as markdown by default, and as text with --format text', async () => {
    web = await startFakeWeb({ pages: { '/a': { html: page('Alpha', 'Alpha is the first letter.') } } });
    const markdown = await run(['read', `${web.url}/a`]);
    expect(markdown.code).toBe(0);
    expect(markdown.stdout).toContain('# Alpha');
    expect(markdown.stdout).toContain(`[the next page](${web.url}/next)`);
    expect(markdown.stdout).not.toContain('Home');
    const text = await run(['read', `${web.url}/a`, '--format', 'text']);
    expect(text.stdout).toContain('Alpha is the first letter.');
    expect(text.stdout).not.toContain('](');
  });

  it('says on stderr when a page is an app shell it could not render, and what would read it', async () => {
    const shell = appShellPage({ article: { title: 'Tides', paragraphs: ['High tide is at 12:04.'] } });
    web = await startFakeWeb({ pages: { '/app': { html: shell }, '/a': { html: page('Alpha', 'Alpha.') } } });
    const builtin = await run(['read', '--reader', 'builtin', '--no-cache', `${web.url}/app`]);
    expect(builtin.code).toBe(0);
    expect(builtin.stdout).not.toContain('12:04');
    expect(builtin.stderr).toBe(
      `deepsearch: note: ${web.url}/app is an app shell whose text its scripts write, which the builtin reader does not run: the browser reader (--reader browser, or auto) renders it in Chromium\n`,
    );
    // auto, without a Chromium: the builtin reader's page, and why it is empty.
    const args = ['read', '--reader', 'auto', '--chromium-path', '/nowhere/chromium', '--no-cache'];
    const auto = await run([...args, '--format', 'json', `${web.url}/app`]);
    expect(auto.code).toBe(0);
    expect(JSON.parse(auto.stdout)).toMatchObject({
      url: `${web.url}/app`,
      emptyReason: expect.stringContaining(
        'Chromium could not render it (Chromium is not at /nowhere/chromium',
      ),
    });
    expect(auto.stderr).toContain('Chromium could not render it (Chromium is not at /nowhere/chromium');
    expect(auto.stderr).toContain(': deepsearch doctor --reader browser checks it\n');
    // An ordinary page gets no note.
    expect((await run([...args, `${web.url}/a`])).stderr).toBe('');
  });

  it('gives one JSON line per input, in the order given, with title, url, date, markdown, text and links', async () => {
    web = await startFakeWeb({
      pages: {
        '/slow': { html: page('Slow', 'Served after a delay.') },
        '/fast': { html: page('Fast', 'Served at once.') },
      },
    });
    const file = join(directory, 'notes.md');
    await writeFile(file, '# Notes\n\nA local markdown file.');
    const result = await run(['read', `${web.url}/slow`, 'notes.md', `${web.url}/fast`, '--format', 'json']);
    expect(result.code).toBe(0);
    const lines = result.stdout
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(lines.map((line) => line.title)).toEqual(['Slow', 'Notes', 'Fast']);
    expect(lines[0]).toMatchObject({
      url: `${web.url}/slow`,
      date: '2024-05-01T00:00:00.000Z',
      links: expect.arrayContaining([{ url: `${web.url}/next`, text: 'the next page' }]),
    });
    expect(lines[0]!.text).toContain('Served after a delay.');
    expect(lines[1]).toMatchObject({
      markdown: '# Notes\n\nA local markdown file.',
      contentType: 'text/markdown',
    });
  });

  it('reads the inputs concurrently', async () => {
    let open = 0;
    let most = 0;
    const { startFakeHttpServer } = await import('../../../testing/fake-http-server.js');
    web = await startFakeHttpServer(async (_request, response) => {
      most = Math.max(most, ++open);
      await new Promise((resolve) => setTimeout(resolve, 150));
      open--;
      response.writeHead(200, { 'content-type': 'text/html' });
      response.end(page('Same', 'Concurrent page.'));
    });
    const result = await run(['read', `${web.url}/1`, `${web.url}/2`, `${web.url}/3`, '--format', 'json']);
    expect(result.stdout.trim().split('\n')).toHaveLength(3);
    expect(most).toBe(3);
  });

  it('reads HTML from stdin and a PDF file', async () => {
    const fromStdin = await run(['read', '-', '--format', 'text'], page('Piped', 'Piped through stdin.'));
    expect(fromStdin.stdout).toContain('Piped through stdin.');
    await writeFile(join(directory, 'r.pdf'), makePdf({ pages: [['Annual figures inside the PDF']] }));
    const pdf = await run(['read', 'r.pdf', '--format', 'text']);
    expect(pdf.stdout).toContain('Annual figures inside the PDF');
  });

  it('parses a small local page in this process and a large one in an extraction process, alike', async () => {
    const paragraphs = (count: number) =>
      Array.from({ length: count }, (_, index) => `Paragraph ${index}: ${'tide '.repeat(40)}`).join(' ');
    await writeFile(join(directory, 'small.html'), page('Small', 'High tide at 12:04.'));
    await writeFile(join(directory, 'large.html'), page('Large', paragraphs(200)));
    const { jobs, inline } = extractionStats;
    const small = await run(['read', 'small.html', '--format', 'json']);
    expect(small.code).toBe(0);
    expect(JSON.parse(small.stdout)).toMatchObject({
      title: 'Small',
      text: expect.stringContaining('12:04'),
    });
    expect(extractionStats).toMatchObject({ jobs, inline: inline + 1 });
    const large = await run(['read', 'large.html', '--format', 'json']);
    expect(JSON.parse(large.stdout)).toMatchObject({
      title: 'Large',
      text: expect.stringContaining('Paragraph 199'),
    });
    expect(extractionStats).toMatchObject({ jobs: jobs + 1, inline: inline + 1 });
  });

  it('prints an error line for a failed input, keeps the others, and exits with the failure code', async () => {
    web = await startFakeWeb({ pages: { '/ok': { html: page('Ok', 'This one works.') } } });
    const result = await run(['read', `${web.url}/missing`, `${web.url}/ok`, '--format', 'json']);
    const lines = result.stdout
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(lines[0]).toMatchObject({ url: `${web.url}/missing`, error: { code: 'page_http_error' } });
    expect(lines[1]).toMatchObject({ title: 'Ok' });
    expect(result.code).toBe(3);
  });

  it('rejects an unknown format, a missing file and a private address with exit code 2', async () => {
    expect((await run(['read', 'x.html', '--format', 'yaml'])).stderr).toContain('--format must be one of');
    const missing = await run(['read', 'no-such-file.html']);
    expect(missing).toMatchObject({ code: 2 });
    expect(missing.stderr).toContain('not a URL (http/https) nor a readable file');
    let stderr = '';
    const io: CliIo = {
      argv: ['node', 'deepsearch', 'read', 'http://127.0.0.1:9/'],
      env: {},
      cwd: directory,
      stdout: { write: () => true },
      stderr: { write: (text: string) => (stderr += text) },
      stdin: Object.assign(Readable.from([]), { isTTY: true }),
      signal: new AbortController().signal,
    };
    expect(await runCli(io)).toBe(2);
    expect(stderr).toContain('loopback');
  });
});
