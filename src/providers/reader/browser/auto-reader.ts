import { isAbortError } from '../../../core/errors/index.js';
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
      const page = await builtin.read(url, options);
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
