import { isAbortError } from '../../../core/errors/index.js';
import type { Page, PageReader, ReadOptions } from '../../spec/page-reader.js';

export interface AutoReaderSettings {
  /** Reads every page first. */
  builtin: PageReader;
  /** Reads again the pages the builtin reader found to be app shells; none without Chromium. */
  browser?: PageReader;
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
      if (!page.emptyShell || !browser) return page;
      try {
        return await browser.read(url, options);
      } catch (error) {
        if (isAbortError(error)) throw error;
        return page;
      }
    },
  };
}
