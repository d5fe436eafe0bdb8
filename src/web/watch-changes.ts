import type { WatchChangeObject, WatchClaimObject, WatchDifferenceObject } from '../events/watch-api.js';
import { h } from './dom.js';
import { hostOf, safeHref } from './footnotes.js';

const kindLabels: Record<WatchChangeObject['kind'], string> = {
  new: 'New',
  changed: 'Changed',
  removed: 'Removed',
};

/** Text reduced for finding a claim in the rendered answer: lower case, words only, one space. */
export function comparable(text: string): string {
  return text
    .toLowerCase()
    .replace(/\[\^\d+\]/g, ' ')
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim();
}

/**
 * The index of the block (a paragraph, list item, cell...) of the rendered answer that holds the
 * claim, from the blocks' texts without their footnote numbers; -1 when none does.
 */
export function blockOfClaim(blockTexts: readonly string[], claim: string): number {
  const wanted = comparable(claim);
  if (!wanted) return -1;
  return blockTexts.findIndex((block) => comparable(block).includes(wanted));
}

/** "number: $49 → $59", one per kind that differs. */
export function describeDifference(difference: WatchDifferenceObject): string {
  return `${difference.kind}: ${difference.before.join(', ')} → ${difference.after.join(', ')}`;
}

/**
 * Marks the blocks of the rendered latest answer that hold a new or changed claim (class
 * `watch-new` / `watch-changed`, with what changed as the title); returns how many were marked.
 */
export function markChangedBlocks(root: ParentNode, changes: readonly WatchChangeObject[]): number {
  const blocks = [...root.querySelectorAll<HTMLElement>('p, li, td, th, blockquote, h1, h2, h3, h4')].filter(
    (block) => !block.querySelector('p, li'),
  );
  const texts = blocks.map(textWithoutFootnotes);
  let marked = 0;
  for (const change of changes) {
    if (change.kind === 'removed' || !change.after) continue;
    const block = blocks[blockOfClaim(texts, change.after.text)];
    if (!block) continue;
    block.classList.add(change.kind === 'new' ? 'watch-new' : 'watch-changed');
    block.title =
      change.kind === 'new'
        ? 'New since the previous check'
        : `Changed: ${(change.differences ?? []).map(describeDifference).join('; ') || 'see the changes below'}`;
    marked++;
  }
  return marked;
}

function textWithoutFootnotes(element: HTMLElement): string {
  const copy = element.cloneNode(true) as HTMLElement;
  for (const footnote of copy.querySelectorAll('sup')) footnote.remove();
  return copy.textContent ?? '';
}

/** One change as a list item: its kind, the claim before (struck) and after, what differs, and both sides' sources. */
export function changeItem(change: WatchChangeObject): HTMLElement {
  return h(
    'li',
    { class: `watch-change change-${change.kind}` },
    h('span', { class: `badge change-badge change-${change.kind}` }, kindLabels[change.kind]),
    change.before && change.kind !== 'new' ? claimBlock('before', change.before) : null,
    change.after ? claimBlock('after', change.after) : null,
    change.differences && change.differences.length > 0
      ? h(
          'p',
          { class: 'muted small change-differences' },
          change.differences.map(describeDifference).join(' · '),
        )
      : null,
  );
}

function claimBlock(side: 'before' | 'after', claim: WatchClaimObject): HTMLElement {
  return h(
    'div',
    { class: `change-side change-${side}` },
    h('span', { class: 'muted small' }, side === 'before' ? 'Before: ' : 'Now: '),
    side === 'before' ? h('del', {}, claim.text) : h('ins', {}, claim.text),
    claim.sources.length > 0
      ? h(
          'ul',
          { class: 'change-sources' },
          ...claim.sources.map((source) =>
            h(
              'li',
              {},
              h(
                'a',
                {
                  href: safeHref(source.url),
                  target: '_blank',
                  rel: 'noopener noreferrer',
                },
                source.title || hostOf(source.url),
              ),
              source.quote ? h('q', { class: 'muted small' }, source.quote) : null,
            ),
          ),
        )
      : null,
  );
}
