import type { Browser, Page } from 'playwright-core';
import { expect } from 'vitest';
import { openTab } from './web-ui-browser.js';

/**
 * What a person does on the page, step by step, for both browser suites: the one against the
 * fake of the run API (web-ui.test.ts) and the one against the real built server
 * (web-ui-real-server.test.ts). Each flow checks what the page must show, whatever the server.
 */

/** Types the question and sends it with Ctrl+Enter (research mode ticks "Research report"). */
export async function ask(page: Page, question: string, mode: 'search' | 'research' = 'search') {
  await page.getByLabel('Your question').fill(question);
  if (mode === 'research') await page.getByLabel('Research report').check();
  await page.getByLabel('Your question').press('Control+Enter');
}

export function waitForStatus(page: Page, status: 'running' | 'completed' | 'cancelled' | 'failed') {
  return page.locator(`#run-status[data-status="${status}"]`).waitFor();
}

/**
 * Hovers footnote `ref` of the answer: the popover shows the verified quote and a link to its
 * source. Returns the popover, still open.
 */
export async function expectFootnoteQuote(
  page: Page,
  expected: { ref: number; quote: string; href: string },
) {
  await page.locator(`#answer-body button.fn[data-ref="${expected.ref}"]`).first().hover();
  const popover = page.locator('#popover');
  await popover.waitFor({ state: 'visible' });
  await expect(popover.locator('blockquote').textContent()).resolves.toContain(expected.quote);
  await expect(popover.getByRole('link').getAttribute('href')).resolves.toBe(expected.href);
  return popover;
}

/** Cancels the open run: its status says so and the Cancel button goes away. */
export async function cancelOpenRun(page: Page) {
  await expect(page.locator('#run-status').textContent()).resolves.toBe('running');
  await page.getByRole('button', { name: 'Cancel', exact: true }).click();
  await waitForStatus(page, 'cancelled');
  await expect(page.getByRole('button', { name: 'Cancel', exact: true }).isVisible()).resolves.toBe(false);
}

/**
 * A fresh tab reopens a finished run from the history list: the same timeline lines and source
 * cards as the tab that watched it live.
 */
export async function reopenFromHistory(
  browser: Browser,
  options: {
    url: string;
    listed: string;
    watched: Page;
    /** Called with the history list in view, before the run is opened (a screenshot). */
    onList?: (page: Page) => Promise<void>;
  } & Parameters<typeof openTab>[1],
) {
  const { url, listed, watched, onList, ...viewport } = options;
  const tab = await openTab(browser, viewport);
  await tab.page.goto(`${url}/`);
  // On a narrow screen the history is behind its toggle.
  const toggle = tab.page.getByRole('button', { name: 'History' });
  await tab.page.locator('#history-list button').first().waitFor({ state: 'attached' });
  if (await toggle.isVisible()) {
    await toggle.click();
    await expect(toggle.getAttribute('aria-expanded')).resolves.toBe('true');
  }
  await onList?.(tab.page);
  await tab.page.locator('#history-list button', { hasText: listed }).click();
  await waitForStatus(tab.page, 'completed');
  // The status comes with the run; its timeline replays from the events stream just after.
  const lines = await watched.locator('#timeline > li').count();
  await expect.poll(() => tab.page.locator('#timeline > li').count()).toBe(lines);
  await tab.page.locator('.source-card').first().waitFor();
  await expect(tab.page.locator('#timeline').textContent()).resolves.toBe(
    await watched.locator('#timeline').textContent(),
  );
  await expect(tab.page.locator('.source-card').count()).resolves.toBe(
    await watched.locator('.source-card').count(),
  );
  return tab;
}

/**
 * On a server that needs a key, the page asks for it: a wrong key is refused with the server's
 * message, the right one opens the page.
 */
export async function signIn(
  page: Page,
  options: {
    url: string;
    wrongKey: string;
    key: string;
    refusal: string;
    /** Called when the dialog first asks, and again once it shows the refusal (screenshots). */
    onState?: (state: 'asked' | 'refused') => Promise<void>;
  },
) {
  await page.goto(`${options.url}/`);
  const dialog = page.getByRole('dialog', { name: 'API key' });
  await dialog.waitFor();
  await options.onState?.('asked');
  await dialog.getByLabel('API key').fill(options.wrongKey);
  await dialog.getByRole('button', { name: 'Sign in' }).click();
  await page
    .locator('#login-message', { hasText: `The server refused the key: ${options.refusal}` })
    .waitFor();
  // Said as an error, and read out (the dialog keeps focus on the field).
  await expect(page.locator('#login-message').getAttribute('class')).resolves.toBe('error');
  await expect(page.locator('#login-message').getAttribute('aria-live')).resolves.toBe('polite');
  await options.onState?.('refused');
  await dialog.getByLabel('API key').fill(options.key);
  await dialog.getByRole('button', { name: 'Sign in' }).click();
  await dialog.waitFor({ state: 'hidden' });
  return dialog;
}

/** Signing out forgets the key and asks for it again. */
export async function signOut(page: Page) {
  await page.getByRole('button', { name: 'Sign out' }).click();
  await page.getByRole('dialog', { name: 'API key' }).waitFor();
  await expect(page.evaluate(() => localStorage.getItem('deepsearch.apiKey'))).resolves.toBeNull();
}

/**
 * Markup from pages and answers was shown as text: no image or inline script was made from it
 * and no `javascript:` link exists. (A script that ran would also show in `problems`: openTab
 * records alert dialogs.)
 */
export async function expectNothingRan(page: Page) {
  await page.waitForTimeout(300); // an onerror would fire as soon as the image fails
  await expect(page.locator('#run img, #popover img, script:not([src])').count()).resolves.toBe(0);
  await expect(page.locator('a[href^="javascript:"]').count()).resolves.toBe(0);
}

/** Sets the search provider in the settings dialog and saves it (an empty id: the server's default). */
export async function chooseSearchProvider(page: Page, id: string) {
  await page.getByRole('button', { name: 'Settings' }).click();
  const dialog = page.getByRole('dialog', { name: 'Settings' });
  await dialog.getByLabel('Search provider').fill(id);
  await dialog.getByRole('button', { name: 'Save' }).click();
  await dialog.waitFor({ state: 'hidden' });
}

/**
 * Resumes the open (finished) run from the keyboard: the budget chosen in its labelled select,
 * then Enter on Resume. The run is running again under the same id, without the Resume control.
 */
export async function resumeOpenRun(page: Page, options: { budget?: string } = {}) {
  const resume = page.getByRole('button', { name: 'Resume', exact: true });
  await resume.waitFor();
  if (options.budget) await page.getByLabel('Budget for the rest of the run').selectOption(options.budget);
  await resume.focus();
  await page.keyboard.press('Enter');
  await resume.waitFor({ state: 'hidden' });
  await expect(page.locator('#run-error').isVisible()).resolves.toBe(false);
}

/**
 * Research with "Review the outline first": the page plans only, shows the outline as a form,
 * `edit` changes it, and Start research runs the edited outline. `onEditor` sees the form first.
 */
export async function researchWithOutline(
  page: Page,
  topic: string,
  options: { edit: (page: Page) => Promise<void>; onEditor?: (page: Page) => Promise<void> },
) {
  await page.getByLabel('Your question').fill(topic);
  await page.getByLabel('Research report').check();
  await page.getByLabel('Review the outline first').check();
  await page.getByRole('button', { name: 'Ask', exact: true }).click();
  const editor = page.getByRole('region', { name: 'Review the outline' });
  await editor.waitFor();
  // Nothing runs yet: no run is open.
  await expect(page.locator('#run').isVisible()).resolves.toBe(false);
  await options.onEditor?.(page);
  await options.edit(page);
  await editor.getByRole('button', { name: 'Start research' }).click();
  await editor.waitFor({ state: 'hidden' });
  await page.locator('#outline-list > li').first().waitFor();
}

/** Adds a section at the end of the outline form. */
export async function addOutlineSection(page: Page, heading: string, questions: string[]) {
  await page.getByRole('button', { name: 'Add a section' }).click();
  const count = await page.locator('#outline-sections > li').count();
  await page.getByLabel(`Section ${count} heading`).fill(heading);
  await page.getByLabel(`Section ${count} questions, one per line`).fill(questions.join('\n'));
}

/** Each outline section's heading and state, as shown. */
export async function outlineStates(page: Page): Promise<Array<[string, string]>> {
  const sections = page.locator('#outline-list > li');
  const states: Array<[string, string]> = [];
  for (let at = 0; at < (await sections.count()); at++) {
    const section = sections.nth(at);
    states.push([
      (await section.locator('.section-heading').textContent()) ?? '',
      (await section.locator('.section-state').textContent()) ?? '',
    ]);
  }
  return states;
}

/** A section's steps, folded until opened: its lines' text once opened. */
export async function sectionSteps(page: Page, heading: string): Promise<string> {
  const section = page.locator('#outline-list > li', {
    has: page.locator('.section-heading', { hasText: heading }),
  });
  const steps = section.locator('details.section-steps');
  await expect(steps.evaluate((node) => (node as HTMLDetailsElement).open)).resolves.toBe(false);
  await steps.locator('summary.fold').click();
  return (await steps.locator('ol').textContent()) ?? '';
}

/** The report's section heading leads to that section's evidence in the outline (opened, in view). */
export async function openEvidenceFromReport(page: Page, heading: string): Promise<string> {
  await page.getByRole('button', { name: `Evidence for ${heading}` }).click();
  const section = page.locator('#outline-list > li', {
    has: page.locator('.section-heading', { hasText: heading }),
  });
  const evidence = section.locator('details.section-evidence');
  await expect
    .poll(() => evidence.evaluate((node) => (node as HTMLDetailsElement).open), { timeout: 5000 })
    .toBe(true);
  await expect
    .poll(() => evidence.locator('summary').evaluate((node) => node === document.activeElement), {
      timeout: 5000,
    })
    .toBe(true);
  return (await evidence.textContent()) ?? '';
}

/** Clicks an export button under the answer; the downloaded file's name and text. */
export async function exportFile(page: Page, name: string): Promise<{ name: string; text: string }> {
  const [file] = await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('button', { name }).click(),
  ]);
  const { readFile } = await import('node:fs/promises');
  return { name: file.suggestedFilename(), text: await readFile((await file.path())!, 'latin1') };
}

/**
 * A run that failed on its LLM: the page says what failed, offers Retry and no Copy or Export
 * (there is no answer); Retry starts the same request again as a new run, opened at once.
 */
export async function expectFailureThenRetry(
  page: Page,
  message: string,
  /** Called with the failure shown, before Retry (a screenshot). */
  onFailed?: () => Promise<void>,
) {
  await waitForStatus(page, 'failed');
  await page.locator('#run-error', { hasText: message }).waitFor();
  await expect(page.locator('#run-error').textContent()).resolves.toBe(message);
  for (const name of ['Copy', 'Export Markdown', 'Export JSON'])
    await expect(page.getByRole('button', { name, exact: true }).isVisible()).resolves.toBe(false);
  await expect(page.locator('#answer').isVisible()).resolves.toBe(false);
  // It failed at its first model call: no timeline of an empty "Step 1" above the message.
  await expect(page.locator('#timeline-box').isVisible()).resolves.toBe(false);
  await onFailed?.();
  const failed = page.url();
  const retry = page.getByRole('button', { name: 'Retry', exact: true });
  await retry.click();
  await expect.poll(() => page.url(), { timeout: 10_000 }).not.toBe(failed);
}
