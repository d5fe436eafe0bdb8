import type { Page } from 'playwright-core';

/** Visible characters (blanks left out) below which a rendered page is still an empty shell. */
export const writtenTextChars = 100;

export interface DomQuietOptions {
  /** No mutation of the DOM for this long: the page's scripts have written what they write. */
  quietMs?: number;
  /** Visible characters (blanks left out) below which the page is still an empty shell. */
  minTextChars?: number;
  /**
   * How long an empty shell is given without a mutation before it is taken as it is: a script
   * that fetches, then waits (a timer, an animation) writes its text seconds after the load.
   */
  emptyPatienceMs?: number;
  /** A page with text that never stops changing (a ticker, a typing effect) is read after this long. */
  busyCapMs?: number;
}

interface DomWait {
  quietMs: number;
  minTextChars: number;
  emptyPatienceMs: number;
  busyCapMs: number;
  waitMs: number;
}

export interface DomState {
  /** Quiet with text, or quiet for emptyPatienceMs without it; false when the wait ran out first. */
  settled: boolean;
  /** Visible characters in the body, blanks left out. */
  textChars: number;
}

/**
 * Waits in the page until its DOM has stopped changing (a MutationObserver): quietMs without a
 * mutation once the body holds text (busyCapMs at most), emptyPatienceMs while it holds next to
 * none (a shell whose script has not written yet), or until `until` (epoch ms). A navigation during the wait (a
 * script moving to another page) ends it unsettled; the caller waits for the new page.
 */
export async function waitForDomQuiet(
  page: Page,
  until: number,
  options: DomQuietOptions = {},
): Promise<DomState> {
  const wait: DomWait = {
    quietMs: options.quietMs ?? 500,
    minTextChars: options.minTextChars ?? writtenTextChars,
    emptyPatienceMs: options.emptyPatienceMs ?? 5_000,
    busyCapMs: options.busyCapMs ?? 3_000,
    waitMs: Math.max(0, until - Date.now()),
  };
  try {
    return await page.evaluate(watchMutations, wait);
  } catch {
    return { settled: false, textChars: 0 };
  }
}

/** Runs in the page: self-contained (Playwright sends its source). */
function watchMutations(wait: DomWait): Promise<DomState> {
  return new Promise((resolve) => {
    const started = performance.now();
    let lastMutation = started;
    const observer = new MutationObserver(() => {
      lastMutation = performance.now();
    });
    observer.observe(document, { subtree: true, childList: true, characterData: true });
    // The text a person sees: textContent would count the shell's scripts and its <noscript>.
    // biome-ignore lint/performance/useDomNodeTextContent: visible text is what is measured
    const textChars = () => (document.body?.innerText ?? '').replace(/\s+/g, '').length;
    const check = () => {
      const now = performance.now();
      const chars = textChars();
      const silent = now - lastMutation;
      const written = chars >= wait.minTextChars;
      const settled =
        silent >= (written ? wait.quietMs : wait.emptyPatienceMs) ||
        (written && now - started >= wait.busyCapMs);
      if (settled || now - started >= wait.waitMs) {
        observer.disconnect();
        resolve({ settled, textChars: chars });
        return;
      }
      setTimeout(check, Math.min(100, Math.max(1, wait.waitMs - (now - started))));
    };
    check();
  });
}
