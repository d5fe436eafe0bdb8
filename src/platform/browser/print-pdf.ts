import { ProviderError } from '../../core/errors/index.js';
import { createSemaphore } from '../../core/semaphore.js';
import { type ChromiumStatus, launchChromium } from './launch-chromium.js';

/** The made-up address the document is served at; nothing else loads. */
const documentUrl = 'https://report.invalid/';

// Printing takes a renderer process each; more at once would only queue inside Chromium.
const printing = createSemaphore({ max: 2 });

export interface PrintPdfOptions {
  chromium: ChromiumStatus;
  /** Default 30 s: a self-contained page prints in well under a second. */
  timeoutMs?: number;
  /** Told each request the page tried and was refused (tests check nothing got through). */
  onBlocked?: (url: string) => void;
}

/**
 * Prints a self-contained HTML page to an A4 PDF with Chromium's print. The HTML holds text a
 * model wrote from web pages, so it is rendered with JavaScript off and no network: the document
 * is answered from memory and every other request (image, font, link prefetch) is refused.
 */
export async function printHtmlToPdf(html: string, options: PrintPdfOptions): Promise<Uint8Array> {
  const browser = await launchChromium(options.chromium);
  const timeout = options.timeoutMs ?? 30_000;
  return printing.run(async () => {
    const context = await browser.newContext({
      javaScriptEnabled: false,
      serviceWorkers: 'block',
      acceptDownloads: false,
      bypassCSP: false,
    });
    try {
      await context.route('**/*', (route) => {
        const request = route.request();
        if (request.url() === documentUrl && request.resourceType() === 'document')
          return route.fulfill({ status: 200, contentType: 'text/html; charset=utf-8', body: html });
        options.onBlocked?.(request.url());
        return route.abort('blockedbyclient');
      });
      const page = await context.newPage();
      page.setDefaultTimeout(timeout);
      await page.goto(documentUrl, { waitUntil: 'load', timeout });
      const pdf = await page.pdf({
        format: 'A4',
        printBackground: true,
        margin: { top: '18mm', bottom: '18mm', left: '16mm', right: '16mm' },
      });
      return new Uint8Array(pdf.buffer, pdf.byteOffset, pdf.byteLength);
    } catch (error) {
      throw new ProviderError(`printing the PDF failed: ${(error as Error).message.split('\n')[0]}`, {
        providerId: 'chromium',
        code: 'pdf_failed',
        cause: error,
      });
    } finally {
      await context.close().catch(() => undefined);
    }
  });
}
