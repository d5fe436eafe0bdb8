import type { WatchChangeObject, WatchClaimObject, WatchDifferenceObject } from '../events/watch-api.js';
import { claimKey } from '../research/write/locate-sentence.js';
import { h } from './dom.js';
import { hostOf, safeHref } from './footnotes.js';

const kindLabels: Record<WatchChangeObject['kind'], string> = {
  new: 'New',
  changed: 'Changed',
  removed: 'Removed',
};

/**
 * The index of the block (a paragraph, list item, cell...) of the rendered answer that holds the
 * claim, from the blocks' texts without their footnote numbers; -1 when none does.
 */
export function blockOfClaim(blockTexts: readonly string[], claim: string): number {
  const wanted = claimKey(claim);
  if (!wanted) return -1;
  return blockTexts.findIndex((block) => claimKey(block).includes(wanted));
}

/** "number: $49 → $59", one per kind that differs. */
export function describeDifference(difference: WatchDifferenceObject): string {
  return `${difference.kind}: ${difference.before.join(', ')} → ${difference.after.join(', ')}`;
}

/**
 * Marks the new and changed claims of the rendered latest answer: the sentence itself in a
 * `<mark class="watch-new|watch-changed">` (split around footnotes and inline markup), else the
 * block that holds it; the title says what changed. Returns how many were marked.
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
    const kind = change.kind === 'new' ? 'watch-new' : 'watch-changed';
    const title =
      change.kind === 'new'
        ? 'New since the previous check'
        : `Changed: ${(change.differences ?? []).map(describeDifference).join('; ') || 'see the changes below'}`;
    const marks = markSentence(block, change.after.text, kind);
    for (const mark of marks) mark.title = title;
    if (marks.length === 0) {
      block.classList.add(kind);
      block.title = title;
    }
    marked++;
  }
  return marked;
}

/**
 * Wraps the claim's words where they stand in the block (footnotes left out, spaces as they
 * come): one `<mark>` per text node it runs over. None when the words are not found as they are.
 */
function markSentence(block: HTMLElement, claim: string, kind: string): HTMLElement[] {
  const needle = claim
    .replace(/[.!?…]+$/, '')
    .replace(/\s+/g, ' ')
    .trim();
  if (!needle) return [];
  const walker = document.createTreeWalker(block, NodeFilter.SHOW_TEXT);
  const places: Array<{ node: Text; offset: number }> = [];
  let flat = '';
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const text = node as Text;
    if (text.parentElement?.closest('sup')) continue;
    for (let offset = 0; offset < text.data.length; offset++) {
      const char = /\s/.test(text.data[offset]!) ? ' ' : text.data[offset]!;
      if (char === ' ' && flat.endsWith(' ')) continue;
      flat += char;
      places.push({ node: text, offset });
    }
  }
  const start = flat.indexOf(needle);
  if (start < 0) return [];
  const end = start + needle.length - 1;
  const spans = new Map<Text, { from: number; to: number }>();
  for (let index = start; index <= end; index++) {
    const { node, offset } = places[index]!;
    const span = spans.get(node);
    spans.set(node, { from: span?.from ?? offset, to: offset + 1 });
  }
  const marks: HTMLElement[] = [];
  for (const [node, { from, to }] of spans) {
    const middle = node.splitText(from);
    middle.splitText(to - from);
    const mark = h('mark', { class: kind });
    middle.replaceWith(mark);
    mark.append(middle);
    marks.push(mark);
  }
  return marks;
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
