import { countText } from './content-root.js';
import { domToText } from './dom-to-text.js';
import { leafBlocks } from './leaf-blocks.js';

// A web address written out as text ("https://...", "www.example.com"): what a citation or
// source line shows, where a link in prose shows words.
const urlText = /\bhttps?:\/\/\S|\bwww\.[\w-]+\.\w/i;
/** At least this many citation lines make a source list, not a story's one address. */
const minCitationLines = 3;
/** A line longer than this is prose that mentions an address, not a citation. */
const citationMaxChars = 300;
/** A label above the list ("Sources:", a "References" heading) this short goes with it. */
const labelMaxChars = 40;

/**
 * Removes the list of sources that ends a news story or blog post: a run of blocks at the end of
 * `element` each of whose lines writes out a web address (bare addresses, or "Title. Site,
 * https://... Accessed 11 Apr. 2025."), and the short label above it. It is the story's
 * bibliography, not its text. The run must hold three such lines or more, and only what is
 * shorter than the run may follow it (a "back to top" link, a sign-up line): a list of addresses
 * in the middle of a story is part of it. What follows goes too. Says whether it removed anything.
 */
export function dropTrailingCitations(element: Element): boolean {
  // Most stories write out no address at all: skip the walk over their blocks.
  if (!urlText.test(element.textContent ?? '')) return false;
  const blocks = leafBlocks(element).filter((block) => countText(block.textContent ?? '') > 0);
  const last = blocks.findLastIndex((block) => citationLines(block) > 0);
  if (last < 0) return false;
  let first = last;
  let lines = citationLines(blocks[last]!);
  while (first > 0) {
    const count = citationLines(blocks[first - 1]!);
    if (count === 0) break;
    lines += count;
    first--;
  }
  if (lines < minCitationLines) return false;
  const run = blocks.slice(first, last + 1);
  const chars = (list: Element[]) => list.reduce((sum, block) => sum + countText(block.textContent ?? ''), 0);
  if (chars(blocks.slice(last + 1)) >= chars(run)) return false;
  // The story ended above its sources: the shorter lines after them are the page's, not its.
  const dropped = blocks.slice(first);
  const label = blocks[first - 1];
  if (label && isLabel(label)) dropped.push(label);
  for (const block of dropped) block.remove();
  return true;
}

/** The number of lines of `block` when each writes out an address; 0 when any line does not. */
function citationLines(block: Element): number {
  if (!urlText.test(block.textContent ?? '')) return 0;
  const lines = domToText(block)
    .split('\n')
    .filter((line) => line.trim());
  const isCitation = (line: string) => urlText.test(line) && countText(line) <= citationMaxChars;
  return lines.every(isCitation) ? lines.length : 0;
}

/** A heading, or a short line ending in a colon: the title of what follows. */
function isLabel(block: Element): boolean {
  const text = (block.textContent ?? '').trim();
  if (text.length > labelMaxChars) return false;
  return /^H[1-6]$/.test(block.tagName) || text.endsWith(':');
}
