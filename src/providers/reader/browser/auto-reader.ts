import { isAbortError, isProviderError, ProviderError } from '../../../core/errors/index.js';
import { detectChallenge } from '../../../platform/http/challenge-page.js';
import type { Page, PageReader, ReadOptions } from '../../spec/page-reader.js';

export interface AutoReaderSettings {
  /** Reads every page first. */
  builtin: PageReader;
  /** Reads again the pages the builtin reader found to be app shells; none without Chromium. */
  browser?: PageReader;
  /** Why there is no browser (Chromium not found), for the page's emptyReason. */
  unavailable?: string;
}

/** Why an app shell is returned as the builtin reader saw it. */
function unrenderedReason(why: string | undefined): string {
  const reason = why ? ` (${why})` : '';
  return `an app shell whose text its scripts write, and Chromium could not render it${reason}: deepsearch doctor --reader browser checks it`;
}

/**
 * The builtin reader, and the browser for the pages it finds empty because scripts write them
 * (Page.emptyShell): a normal page costs one fetch, as before; only an app shell starts Chromium.
 * When the browser cannot read it either, the builtin reader's page is what there is.
 */
export function createAutoReader(settings: AutoReaderSettings): PageReader {
  const { builtin, browser } = settings;
  return {
    specificationVersion: 'v1',
    id: 'auto',
    freeToPrefetch: true,
    prepare: () => builtin.prepare?.() ?? Promise.resolve(),
    async read(url: string, options: ReadOptions = {}): Promise<Page> {
      let page: Page;
      try {
        page = await builtin.read(url, options);
      } catch (error) {
        // A bot check may let a real browser through: one try with Chromium, then the check stands.
        if (!browser || !isBlocked(error)) throw error;
        return await retryBlocked(browser, url, options, error);
      }
      if (!page.emptyShell) return page;
      if (!browser) return { ...page, emptyReason: unrenderedReason(settings.unavailable) };
      try {
        return await browser.read(url, options);
      } catch (error) {
        if (isAbortError(error)) throw error;
        return { ...page, emptyReason: unrenderedReason((error as Error).message) };
      }
    },
  };
}

function isBlocked(error: unknown): error is ProviderError {
  return isProviderError(error) && error.code === 'page_blocked_by_bot_check';
}

/** The browser's page, unless it still shows the challenge (or fails): then the builtin reader's refusal. */
async function retryBlocked(
  browser: PageReader,
  url: string,
  options: ReadOptions,
  blocked: ProviderError,
): Promise<Page> {
  let rendered: Page;
  try {
    rendered = await browser.read(url, options);
  } catch (error) {
    if (isAbortError(error) || isBlocked(error)) throw error;
    throw blocked;
  }
  const text = `${rendered.title}\n${rendered.text}`;
  if (!detectChallenge({ status: 200, body: text, visibleText: text })) return rendered;
  throw new ProviderError(`${blocked.message}, and in Chromium too`, {
    providerId: blocked.providerId,
    code: 'page_blocked_by_bot_check',
    statusCode: blocked.statusCode,
    cause: blocked,
  });
}
