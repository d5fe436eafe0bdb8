import { countText } from './content-root.js';
import { blockTags, skippedTags } from './dom-to-text.js';

/**
 * How our structure candidate and Readability's article relate, line by line (both texts come from
 * domToText on the same document, so a paragraph they share is the same line in both). The figures
 * say whether ours is Readability's article plus page furniture (teasers, related links, menus,
 * sign-up boxes around it), or a different part of the page altogether.
 */
export interface CandidateComparison {
  /** Share of Readability's text (non-blank characters) in lines our candidate has too. */
  containment: number;
  /** Share of Readability's text in prose lines (paragraphs of `proseLineChars` or more). */
  readabilityProse: number;
  /** Between the first and last line ours shares with Readability's: the share of ours that is not shared. */
  interiorExtra: number;
  /** Lines only ours has: the share that are the whole text of a link... */
  extraLinkLines: number;
  /** ...and the share of their characters in prose lines. */
  extraProse: number;
}

export interface CompareCandidatesInput {
  readability: string;
  structure: string;
  /** Lines of our candidate that are mostly link text (linkLines). */
  structureLinks: ReadonlySet<string>;
}

/** A line this long (non-blank characters) is a paragraph of prose, not a title, label or teaser line. */
const proseLineChars = 100;

export function compareCandidates(input: CompareCandidatesInput): CandidateComparison {
  const structureLines = input.structure.split('\n');
  const inStructure = new Set(structureLines);
  const readabilityLines = new Set<string>();
  let readabilityChars = 0;
  let sharedChars = 0;
  let proseChars = 0;
  for (const line of input.readability.split('\n')) {
    readabilityLines.add(line);
    const chars = countText(line);
    readabilityChars += chars;
    if (inStructure.has(line)) sharedChars += chars;
    if (chars >= proseLineChars) proseChars += chars;
  }
  const extra = describeExtra(structureLines, readabilityLines, input.structureLinks);
  const share = (part: number, whole: number) => (whole > 0 ? part / whole : 0);
  return {
    containment: share(sharedChars, readabilityChars),
    readabilityProse: share(proseChars, readabilityChars),
    interiorExtra: extra.spanChars > 0 ? extra.interiorChars / extra.spanChars : 1,
    extraLinkLines: share(extra.linkLines, extra.lines),
    extraProse: share(extra.proseChars, extra.chars),
  };
}

/** Our lines that Readability's article lacks: how many, how many are links, how much is prose or inside its span. */
function describeExtra(structureLines: string[], readabilityLines: Set<string>, links: ReadonlySet<string>) {
  const first = structureLines.findIndex((line) => readabilityLines.has(line));
  const last = structureLines.findLastIndex((line) => readabilityLines.has(line));
  const extra = { lines: 0, linkLines: 0, chars: 0, proseChars: 0, spanChars: 0, interiorChars: 0 };
  structureLines.forEach((line, index) => {
    const chars = countText(line);
    const shared = readabilityLines.has(line);
    if (first >= 0 && index >= first && index <= last) {
      extra.spanChars += chars;
      if (!shared) extra.interiorChars += chars;
    }
    if (shared) return;
    extra.lines++;
    extra.chars += chars;
    if (links.has(line)) extra.linkLines++;
    if (chars >= proseLineChars) extra.proseChars += chars;
  });
  return extra;
}

/** A line whose characters are at least this share link text is a link line. */
const linkLineShare = 0.5;

/**
 * The lines of `element` (as domToText splits them) that are mostly link text: a headline that is
 * a whole link, a teaser whose link holds several blocks (each of its lines), a date glued to a
 * linked headline. Spaces collapsed the way domToText collapses them.
 */
export function linkLines(element: Element): Set<string> {
  const lines = new Set<string>();
  let text = '';
  let linked = 0;
  const flush = () => {
    const line = text.replace(/[ \t\u00a0]+/g, ' ').trim();
    if (line && linked >= countText(line) * linkLineShare) lines.add(line);
    text = '';
    linked = 0;
  };
  const walk = (node: Node, inLink: boolean) => {
    if (node.nodeType === 3) {
      const pieces = (node.textContent ?? '').split('\n');
      pieces.forEach((piece, index) => {
        if (index > 0) flush();
        text += piece;
        if (inLink) linked += countText(piece);
      });
      return;
    }
    if (node.nodeType !== 1) return;
    const tag = node.nodeName.toUpperCase();
    if (skippedTags.has(tag)) return;
    const block = blockTags.has(tag);
    if (block) flush();
    const link = inLink || tag === 'A';
    for (let child = node.firstChild; child; child = child.nextSibling) walk(child, link);
    if (tag === 'TD' || tag === 'TH') text += ' ';
    else if (block) flush();
  };
  walk(element, false);
  flush();
  return lines;
}
