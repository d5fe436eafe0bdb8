import { countText } from './content-root.js';

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
  /** Texts of the links in our candidate, spaces collapsed. */
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

/** The text of each link under `element`, spaces collapsed the way domToText collapses them. */
export function linkTexts(element: Element): Set<string> {
  const texts = new Set<string>();
  for (const link of element.querySelectorAll('a')) {
    const text = (link.textContent ?? '').replace(/\s+/g, ' ').trim();
    if (text) texts.add(text);
  }
  return texts;
}
