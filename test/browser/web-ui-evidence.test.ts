import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildWebUi, canRunBrowser, launchChromium, openTab, shot } from './web-ui-browser.js';
import { ask, expectFootnoteQuote, exportFile, waitForStatus } from './web-ui-flows.js';
import { realPages, realQuestions, realQuotes, realTitles, startRealWorld } from './web-ui-real-world.js';

// The page against `deepsearch serve` from dist/ (npm run build first): a footnote opens what the
// run read of its source, after the page changed; the sources download as citation files.
let browser: Browser | undefined;
beforeAll(async () => {
  if (!canRunBrowser) return;
  buildWebUi();
  browser = await launchChromium();
}, 60_000);
afterAll(async () => {
  await browser?.close();
});

describe.skipIf(!canRunBrowser)('web page: source snapshots and citations', () => {
  it('a footnote links to its source as read on the day, which opens after the page changed; BibTeX downloads', async () => {
    const world = await startRealWorld();
    const original = realPages['/wiki/Paris']!;
    try {
      const { page, problems } = await openTab(browser!);
      await page.goto(`${world.url}/`);
      await ask(page, realQuestions.paris);
      await waitForStatus(page, 'completed');
      const popover = await expectFootnoteQuote(page, {
        ref: 1,
        quote: realQuotes.paris.replace(/\.$/, ''),
        href: `${world.web.url}/wiki/Paris`,
      });
      const today = new Date().toISOString().slice(0, 10);
      const asRead = popover.getByRole('button', { name: `as read on ${today}` });
      await asRead.waitFor({ state: 'visible' });
      // The page changes on the web; the snapshot is what the run read.
      realPages['/wiki/Paris'] = {
        html: '<html><head><title>Gone</title></head><body>Moved away.</body></html>',
      };
      await page.locator('#answer-body button.fn[data-ref="1"]').click();
      await asRead.click();
      const dialog = page.locator('#snapshot');
      await dialog.locator('mark').waitFor();
      await expect(dialog.locator('#snapshot-title').textContent()).resolves.toBe(realTitles.paris);
      await expect(dialog.locator('mark').textContent()).resolves.toBe(realQuotes.paris.replace(/\.$/, ''));
      await expect(dialog.locator('#snapshot-text').textContent()).resolves.toContain('It sits on the Seine');
      await expect(dialog.locator('#snapshot-meta').textContent()).resolves.toContain(`as read on ${today}`);
      await shot(page, 'real-snapshot-desktop-light');
      await dialog.getByRole('button', { name: 'Close' }).click();
      const bibtex = await exportFile(page, 'BibTeX');
      expect(bibtex.name).toMatch(/^deepsearch-.+-sources\.bib$/);
      expect(bibtex.text).toContain(`url = {${world.web.url}/wiki/Paris}`);
      expect(bibtex.text).toContain(`urldate = {${today}}`);
      expect(problems).toEqual([]);
    } finally {
      realPages['/wiki/Paris'] = original;
      await world.close();
    }
  }, 90_000);
});
