import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { type Browser, chromium, type Page } from 'playwright-core';

export const chromiumPath = '/usr/bin/chromium';
export const canRunBrowser = existsSync(chromiumPath) || process.env.CI === 'true';
if (!canRunBrowser)
  console.warn(`web UI browser tests skipped: ${chromiumPath} is missing (apt-get install chromium)`);

/** Screenshots of each state, to look at: .artifacts/web-ui/<name>.png (git-ignored). */
export const screenshotDir = join(process.cwd(), '.artifacts', 'web-ui');

/** The page's bundle as `npm run build` makes it (esbuild, a fraction of a second). */
export function buildWebUi(): void {
  execFileSync(process.execPath, ['scripts/build-web.mjs'], { stdio: 'pipe' });
}

export async function launchChromium(): Promise<Browser> {
  mkdirSync(screenshotDir, { recursive: true });
  return chromium.launch({
    executablePath: chromiumPath,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
    ],
  });
}

/**
 * A tab that records console errors, CSP refusals, page errors and alert dialogs: the page itself
 * must obey its own CSP and never run what a page or an answer carried.
 */
export async function openTab(
  browser: Browser,
  options: { width?: number; height?: number; colorScheme?: 'light' | 'dark' } = {},
): Promise<{ page: Page; problems: string[] }> {
  const context = await browser.newContext({
    viewport: { width: options.width ?? 1280, height: options.height ?? 900 },
    colorScheme: options.colorScheme ?? 'light',
  });
  const page = await context.newPage();
  const problems: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error' && !/401|Unauthorized|404/.test(message.text()))
      problems.push(message.text());
  });
  page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
  // An alert is what injected markup would do; the page itself never calls one (only confirm).
  page.on('dialog', (dialog) => {
    if (dialog.type() !== 'alert') return;
    problems.push(`alert dialog: ${dialog.message()}`);
    void dialog.dismiss();
  });
  return { page, problems };
}

export async function shot(page: Page, name: string): Promise<void> {
  // From the top: a full-page shot of a scrolled page draws the sticky header mid-page.
  await page.evaluate(() => window.scrollTo(0, 0));
  await page.screenshot({ path: join(screenshotDir, `${name}.png`), fullPage: true });
}

const shotSizes = [
  { label: 'desktop', width: 1280, height: 900 },
  { label: 'mobile', width: 390, height: 844 },
] as const;

/**
 * The same state at desktop and phone widths, light and dark (`<name>-desktop-light.png` ...):
 * the system's scheme is switched, which the page follows while no theme was chosen on it. The
 * tab's size and scheme are restored afterwards.
 */
export async function shotEach(page: Page, name: string): Promise<void> {
  const viewport = page.viewportSize();
  const scheme = await page.evaluate(() =>
    window.matchMedia('(prefers-color-scheme: dark)').matches ? 'dark' : 'light',
  );
  for (const size of shotSizes) {
    await page.setViewportSize({ width: size.width, height: size.height });
    for (const colorScheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme });
      await page.locator(`html[data-theme="${colorScheme}"]`).waitFor({ state: 'attached' });
      await shot(page, `${name}-${size.label}-${colorScheme}`);
    }
  }
  if (viewport) await page.setViewportSize(viewport);
  await page.emulateMedia({ colorScheme: scheme });
}
