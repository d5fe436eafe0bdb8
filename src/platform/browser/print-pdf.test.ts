import { createServer, type Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listenOnLoopback } from '../../testing/fake-http-server.js';
import { closeChromium, findChromium } from './launch-chromium.js';
import { printHtmlToPdf } from './print-pdf.js';

const chromium = findChromium(undefined);
let server: Server;
let origin: string;
const fetched: string[] = [];

beforeAll(async () => {
  // Whatever the printed page tries to load would arrive here (loopback only).
  server = createServer((request, response) => {
    fetched.push(request.url ?? '');
    response.end('body { color: red }');
  });
  origin = `http://127.0.0.1:${await listenOnLoopback(server)}`;
});
afterAll(async () => {
  await closeChromium();
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

describe.runIf(chromium.available)('printHtmlToPdf', () => {
  it('prints a PDF with scripts off and nothing fetched: styles, images, frames, scripts all stay out', async () => {
    const html = `<!doctype html><html><head><link rel="stylesheet" href="${origin}/style.css">
      <link rel="prefetch" href="${origin}/prefetch"></head><body><h1>Report title</h1>
      <img src="${origin}/image.png"><iframe src="${origin}/frame"></iframe>
      <script>fetch('${origin}/script'); document.body.append('script ran')</script>
      <p>Plain text of the report.</p></body></html>`;
    const blocked: string[] = [];
    const pdf = await printHtmlToPdf(html, { chromium, onBlocked: (url) => blocked.push(url) });
    expect(Buffer.from(pdf.slice(0, 5)).toString()).toBe('%PDF-');
    const { extractText, getDocumentProxy } = await import('unpdf');
    const { text } = await extractText(await getDocumentProxy(pdf), { mergePages: true });
    expect(text).toContain('Plain text of the report.');
    expect(text).not.toContain('script ran');
    // A second print reuses the browser.
    await printHtmlToPdf('<p>again</p>', { chromium });
    await new Promise((resolve) => setTimeout(resolve, 200));
    // The page asked for its style, image and frame and got none of them; the script never ran.
    expect(blocked).toEqual(
      expect.arrayContaining([`${origin}/frame`, `${origin}/image.png`, `${origin}/style.css`]),
    );
    expect(blocked.filter((url) => url.endsWith('/script'))).toEqual([]);
    expect(fetched).toEqual([]);
  }, 60_000);
});

describe('findChromium', () => {
  it('names the configured path that does not exist and what to do', () => {
    expect(findChromium('/nonexistent/chromium')).toEqual({
      available: false,
      reason:
        'Chromium is not at /nonexistent/chromium (DEEPSEARCH_CHROMIUM_PATH): install it or fix the path',
    });
  });
});
