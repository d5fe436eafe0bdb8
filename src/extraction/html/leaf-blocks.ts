const blockSelector = 'p, li, h1, h2, h3, h4, h5, h6, blockquote, pre, dt, dd, tr';

/**
 * The innermost text blocks: paragraphs, list items, headings... that hold no other such block,
 * and <div>s that hold text but no block at all. A table goes row by row; a list item holding a
 * nested list is judged by its inner items.
 */
export function leafBlocks(element: Element): Element[] {
  const blocks: Element[] = [];
  for (const block of element.querySelectorAll(`${blockSelector}, div`)) {
    if (block.querySelector(`${blockSelector}, div`)) continue;
    if (block.closest('pre') && block.tagName !== 'PRE') continue;
    blocks.push(block);
  }
  return blocks;
}
