import type { TextChunk } from './chunk-text.js';

/** One unit of a page's structure: a paragraph, a list item, a table row or a line, with its title. */
export interface PageBlock extends TextChunk {
  /**
   * Characters of the title lines at the block's start, up to its body (0 without a title): a
   * `#` heading, a bold line, or a short plain line that introduces the block.
   */
  titleLength: number;
}

type LineKind = 'blank' | 'heading' | 'item' | 'row' | 'text';

interface Line {
  start: number;
  end: number;
  kind: LineKind;
  /** The line without surrounding spaces. */
  text: string;
}

const atxHeading = /^#{1,6}\s+\S/;
// "**Early life**", "__Awards__", "**Cast:**": a line that is only bold text reads as a heading.
const boldLine = /^(?:\*\*[^*\n]+\*\*|__[^_\n]+__):?$/;
const listItem = /^(?:[-*+•]|\d{1,3}[.)])\s+\S/;
const endsSentence = /[.!?…]["'”’)\]]*$/;
const opensLikeTitle = /^["“'‘(]?[\p{Lu}\p{N}]/u;
const maxTitleChars = 80;
const maxTitleWords = 12;
// Untitled runs of this many lines or more, each a whole sentence, are a page written one sentence
// (or one record) a line: each line is a block of its own.
const minSentenceLines = 3;

/**
 * The page's blocks, whatever spells its structure: blank-line paragraphs, list items, table rows,
 * lines that are each a sentence; a title (a `#` heading, a bold line, a short line that introduces
 * a longer one, without a full stop) joins the block below it, with a blank line between or not.
 * Offsets are true; text between blocks (blank lines) belongs to none.
 */
export function blocksOf(text: string): PageBlock[] {
  const lines = linesOf(text);
  const titles = titleLines(lines);
  const blocks: PageBlock[] = [];
  let title: { start: number; end: number } | undefined;
  let open: { block: PageBlock; kind: LineKind; lines: Line[] } | undefined;
  const close = () => {
    if (open) for (const block of finished(text, open.block, open.kind, open.lines)) blocks.push(block);
    open = undefined;
  };
  const start = (line: Line) => {
    close();
    const from = title?.start ?? line.start;
    open = {
      block: { start: from, end: line.end, text: '', titleLength: title ? line.start - from : 0 },
      kind: line.kind,
      lines: [line],
    };
    title = undefined;
  };
  for (let index = 0; index < lines.length; index++) {
    const line = lines[index]!;
    if (line.kind === 'blank') {
      close();
      continue;
    }
    if (titles[index]) {
      close();
      title = title ? { start: title.start, end: line.end } : { start: line.start, end: line.end };
      continue;
    }
    const previous = lines[index - 1];
    const continues =
      open !== undefined &&
      previous?.kind !== 'blank' &&
      line.kind === 'text' &&
      (open.kind === 'text' || open.kind === 'item');
    if (!continues || !open) start(line);
    else {
      open.block.end = line.end;
      open.lines.push(line);
    }
  }
  close();
  // A title nothing was written under is still text worth finding.
  if (title) blocks.push({ start: title.start, end: title.end, text: '', titleLength: 0 });
  for (const block of blocks) block.text = text.slice(block.start, block.end);
  return blocks;
}

/** Whether a block opens with a title (blocksOf's titleLength, or a `#` heading line). */
export function isTitled(block: TextChunk & { titleLength?: number }): boolean {
  return (block.titleLength ?? 0) > 0 || atxHeading.test(block.text);
}

function linesOf(text: string): Line[] {
  const lines: Line[] = [];
  let start = 0;
  while (start <= text.length) {
    let end = text.indexOf('\n', start);
    if (end === -1) end = text.length;
    const raw = text.slice(start, end);
    const trimmed = raw.trim();
    const lead = raw.length - raw.trimStart().length;
    lines.push({
      start: start + lead,
      end: start + lead + trimmed.length,
      kind: kindOf(trimmed),
      text: trimmed,
    });
    start = end + 1;
  }
  return lines;
}

function kindOf(line: string): LineKind {
  if (!line) return 'blank';
  if (atxHeading.test(line) || boldLine.test(line)) return 'heading';
  if (line.startsWith('|')) return 'row';
  if (listItem.test(line)) return 'item';
  return 'text';
}

/**
 * Per line, whether it is a title: a heading, or a plain line that is short, without a full stop,
 * opening with a capital or a digit, above (directly or after one blank line) a line of text that
 * is clearly longer and reads as a sentence or a paragraph. Not under an unfinished line of text: that is a wrapped paragraph's line.
 */
function titleLines(lines: readonly Line[]): boolean[] {
  const titles: boolean[] = [];
  for (let index = 0; index < lines.length; index++) titles.push(isTitle(lines, titles, index));
  return titles;
}

function isTitle(lines: readonly Line[], titles: readonly boolean[], index: number): boolean {
  const line = lines[index]!;
  if (line.kind === 'heading') return true;
  if (line.kind !== 'text' || line.text.length > maxTitleChars || endsSentence.test(line.text)) return false;
  if (/[,;]$/.test(line.text) || !opensLikeTitle.test(line.text)) return false;
  if (line.text.split(/\s+/).length > maxTitleWords) return false;
  const previous = lines[index - 1];
  if (previous?.kind === 'text' && !titles[index - 1] && !endsSentence.test(previous.text)) return false;
  let next = lines[index + 1];
  if (next?.kind === 'blank') next = lines[index + 2];
  if (next?.kind !== 'text' || next.text.length < line.text.length * 1.5) return false;
  return next.text.length >= 40 || endsSentence.test(next.text);
}

/** A closed block, or its lines one block each when it is an untitled run of sentence lines. */
function finished(text: string, block: PageBlock, kind: LineKind, lines: readonly Line[]): PageBlock[] {
  const oneSentenceEach =
    kind === 'text' &&
    block.titleLength === 0 &&
    lines.length >= minSentenceLines &&
    lines.every((line) => endsSentence.test(line.text));
  if (!oneSentenceEach) return [block];
  return lines.map((line) => ({
    start: line.start,
    end: line.end,
    text: text.slice(line.start, line.end),
    titleLength: 0,
  }));
}
