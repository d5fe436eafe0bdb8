import { isProviderError } from '../../core/errors/index.js';
import type { Page } from '../../providers/spec/page-reader.js';
import type { HostProblem } from '../../retrieval/host-health.js';
import { normalizeUrl, urlKey } from '../../retrieval/normalize-url.js';
import { type SkippedPage, skippedByError, skippedByPage } from '../../retrieval/skipped-page.js';
import type { StepOutcome } from '../actions/action-definition.js';
import { readPage } from '../context/prefetch-pages.js';
import { embedPageChunks } from '../context/semantic-snippets.js';
import type { RunContext } from '../run-context.js';
import type { StoredPage } from '../state/page-store.js';
import { unreadPages } from './no-progress-hints.js';
import { errorMessage, failureForModel, isFatal } from './step-errors.js';

const maxLinksPerPage = 200;
const minReadableChars = 40;

/**
 * Reads the chosen pages concurrently. A page read joins the page store (its snippets become
 * knowledge) and its links become candidates; a failure marks the URL bad so it is not offered
 * again. Nothing read at all switches visit off for the next step.
 */
export async function runVisitStep(
  context: RunContext,
  input: { question: string; targets: string[]; urlList: readonly string[]; offeredUrls: readonly string[] },
): Promise<StepOutcome> {
  const { budget } = context;
  const { urls, readBefore, unknown } = resolveTargets(context, input.targets, input.urlList);
  if (urls.length === 0) return nothingNewToRead(context, { readBefore, unknown }, input.offeredUrls);
  context.emit({ type: 'read-start', step: context.step, urls });
  const waited = budget.wait('read');
  const settled = await Promise.allSettled(urls.map((url) => readPage(context, url)));
  waited();
  budget.countRead(urls.length);
  const notes: string[] = [];
  const stored: StoredPage[] = [];
  let readCount = 0;
  settled.forEach((outcome, index) => {
    const url = urls[index]!;
    markVisited(context, url);
    if (outcome.status === 'rejected') {
      if (isFatal(outcome.reason)) throw outcome.reason;
      failRead(context, url, outcome.reason, notes);
      noteSkipped(context, skippedByError(url, outcome.reason));
      context.hostHealth.recordUrl(url, readProblem(outcome.reason));
      return;
    }
    const page = outcome.value;
    // A paywall or login stub, or an app shell, is never taken as the page's content.
    const skipped = skippedByPage(page, minReadableChars);
    if (skipped) {
      // An app shell says why it is empty (not rendered, or its scripts wrote nothing).
      const empty = page.emptyReason ? `no readable content: ${page.emptyReason}` : 'no readable content';
      failRead(context, url, skipped.reason === 'empty' ? empty : skipped.detail, notes);
      noteSkipped(context, { ...skipped, url });
      context.hostHealth.recordUrl(page.url, page.paywalled ? 'paywalled' : 'failed');
      return;
    }
    stored.push(storePage(context, page));
    context.hostHealth.recordUrl(page.url, 'ok');
    readCount++;
    context.emit({
      type: 'read-end',
      step: context.step,
      url,
      ok: true,
      title: page.title,
      chars: page.text.length,
    });
    notes.push(
      `read ${page.url} ("${page.title.slice(0, 80)}", ${page.text.length} chars${page.emptyReason ? `, ${page.emptyReason}` : ''})`,
    );
  });
  // Awaited before the next prompt is built, so this step's pages are scored semantically too.
  await Promise.all(stored.map((page) => embedPageChunks(context, page)));
  return { note: `${notes.join('; ')}.`, disableNext: readCount === 0 };
}

/** No target could be read: said in plain words, with the best pages still unread. */
function nothingNewToRead(
  context: RunContext,
  named: { readBefore: number; unknown: number },
  offered: readonly string[],
): StepOutcome {
  const { readBefore, unknown } = named;
  const what =
    readBefore === 0
      ? 'none of the pages named is one this run found'
      : unknown === 0
        ? `${readBefore === 1 ? 'the page named was' : `all ${readBefore} pages named were`} read before`
        : `${readBefore} of the pages named ${readBefore === 1 ? 'was' : 'were'} read before, the other${unknown === 1 ? ' was' : 's were'} not found in this run`;
  const unread = unreadPages(context, offered);
  const next =
    unread.length > 0
      ? `choose from the unread ones: ${unread.join(', ')}`
      : 'no unread page is left: search with other words, or answer';
  return { note: `nothing new was read: ${what}; ${next}.`, disableNext: true, noProgress: what };
}

function resolveTargets(
  context: RunContext,
  targets: readonly string[],
  urlList: readonly string[],
): { urls: string[]; readBefore: number; unknown: number } {
  const { state } = context;
  const resolved: string[] = [];
  const seen = new Set<string>();
  let readBefore = 0;
  let unknown = 0;
  for (const target of targets) {
    const number = /^\s*[[#(]?(\d{1,3})[\])]?\.?\s*$/.exec(target);
    const raw = number ? urlList[Number(number[1]) - 1] : target;
    const url = raw ? normalizeUrl(raw) : undefined;
    const key = url ? urlKey(url) : undefined;
    if (!url || !key) {
      unknown++;
      continue;
    }
    if (seen.has(key)) continue;
    seen.add(key);
    if (state.visited.has(key)) {
      readBefore++;
      continue;
    }
    // Only URLs this run found (search hits, page links, the question): a page that tells the
    // model to open another URL (say, one carrying the question as a parameter) gets nothing.
    if (!state.urls.has(url)) {
      context.emit({
        type: 'warning',
        step: context.step,
        message: `not reading ${url.slice(0, 200)}: it was not found in this run (search results, pages read or the question)`,
      });
      unknown++;
      continue;
    }
    resolved.push(url);
    if (resolved.length === context.config.agent.maxUrlsPerStep) break;
  }
  return { urls: resolved, readBefore, unknown };
}

function markVisited(context: RunContext, url: string): void {
  const key = urlKey(url);
  if (key) context.state.visited.add(key);
}

/** The person sees the error as it is; the model, which sees bad URLs and the diary, without service addresses. */
function failRead(context: RunContext, url: string, failure: unknown, notes: string[]): void {
  const key = urlKey(url);
  const reason = failureForModel(failure);
  if (key) context.state.badUrls.set(key, reason);
  context.emit({ type: 'read-end', step: context.step, url, ok: false, error: errorMessage(failure) });
  notes.push(`could not read ${url}: ${reason}`);
}

/** The run's list of pages it could not read, once per URL (the result's `skipped`). */
function noteSkipped(context: RunContext, skipped: SkippedPage): void {
  const key = urlKey(skipped.url) ?? skipped.url;
  context.state.skipped.set(key, skipped);
}

/** 401/402/403/451: the page is behind a login, a paywall or a legal wall, not merely broken. */
function readProblem(error: unknown): HostProblem {
  const status = isProviderError(error) ? error.statusCode : undefined;
  if (status === 402) return 'paywalled';
  // Login walls, bot blocks, legal blocks and rate limits: the host refuses us, not the page.
  return status === 401 || status === 403 || status === 429 || status === 451 ? 'blocked' : 'failed';
}

function storePage(context: RunContext, page: Page): StoredPage {
  const { state } = context;
  const stored = state.pages.add(page, context.step);
  context.onPageRead?.(stored);
  markVisited(context, page.url);
  for (const link of page.links.slice(0, maxLinksPerPage)) {
    state.urls.add({ url: link.url, anchor: link.text, source: `page:${page.url}`, step: context.step });
  }
  return stored;
}
