import { chunkText } from '../retrieval/chunk-text.js';

export interface DocumentChunk {
  kind: 'text' | 'table';
  /** The headings above the chunk, outermost first, joined with " > " ('' before any heading). */
  heading: string;
  text: string;
  /** 1-based page of a PDF. */
  page?: number;
  /** Offsets in the document's stored text. */
  start: number;
  end: number;
}

export const defaultDocumentChunkChars = 1000;

interface Block {
  kind: 'text' | 'table' | 'heading';
  start: number;
  end: number;
  level?: number;
  title?: string;
}

/**
 * Structure-aware chunks of a markdown document: a heading starts a new chunk and every chunk
 * carries the headings above it (the context a lone paragraph lacks), a table is one chunk of
 * its own however long, paragraphs are packed up to `maxChars` and only a paragraph longer than
 * that is cut (at sentence breaks). Pages, when given, are chunked one by one so each chunk knows
 * its page; the document text is then the pages joined by blank lines.
 */
export function chunkDocument(options: {
  text: string;
  /** Page texts of a PDF; their join with '\n\n' must be `text`. */
  pages?: readonly string[];
  maxChars?: number;
}): DocumentChunk[] {
  const maxChars = options.maxChars ?? defaultDocumentChunkChars;
  if (!options.pages) return chunkMarkdown(options.text, 0, maxChars, undefined, []);
  const chunks: DocumentChunk[] = [];
  let offset = 0;
  let headings: string[] = [];
  options.pages.forEach((page, index) => {
    const pageChunks = chunkMarkdown(page, offset, maxChars, index + 1, headings);
    chunks.push(...pageChunks);
    if (pageChunks.length > 0)
      headings = pageChunks[pageChunks.length - 1]!.heading.split(' > ').filter(Boolean);
    offset += page.length + 2;
  });
  return chunks;
}

function chunkMarkdown(
  text: string,
  base: number,
  maxChars: number,
  page: number | undefined,
  outerHeadings: readonly string[],
): DocumentChunk[] {
  const chunks: DocumentChunk[] = [];
  const stack: Array<{ level: number; title: string }> = outerHeadings.map((title) => ({ level: 0, title }));
  let pending: { start: number; end: number } | undefined;
  const heading = () => stack.map((entry) => entry.title).join(' > ');
  const flush = () => {
    if (!pending) return;
    for (const piece of splitLong(text, pending.start, pending.end, maxChars)) {
      chunks.push({
        kind: 'text',
        heading: heading(),
        text: piece.text,
        page,
        start: base + piece.start,
        end: base + piece.end,
      });
    }
    pending = undefined;
  };
  // A heading nothing was written under (an outline, a title-only file) is a chunk of its own, or
  // its words could never be found; one followed by a deeper heading lives on in that one's context.
  let bare: { start: number; end: number; level: number } | undefined;
  const keepBare = (nextLevel: number) => {
    if (!bare || nextLevel > bare.level) return;
    chunks.push({
      kind: 'text',
      heading: heading(),
      text: text.slice(bare.start, bare.end),
      page,
      start: base + bare.start,
      end: base + bare.end,
    });
  };
  for (const block of markdownBlocks(text)) {
    if (block.kind === 'heading') {
      flush();
      keepBare(block.level!);
      while (stack.length > 0 && stack[stack.length - 1]!.level >= block.level!) stack.pop();
      stack.push({ level: block.level!, title: block.title! });
      bare = { start: block.start, end: block.end, level: block.level! };
      continue;
    }
    bare = undefined;
    if (block.kind === 'table') {
      flush();
      chunks.push({
        kind: 'table',
        heading: heading(),
        text: text.slice(block.start, block.end),
        page,
        start: base + block.start,
        end: base + block.end,
      });
      continue;
    }
    if (pending && block.end - pending.start > maxChars) flush();
    pending = pending ? { start: pending.start, end: block.end } : { start: block.start, end: block.end };
  }
  flush();
  keepBare(0);
  return chunks;
}

function splitLong(text: string, start: number, end: number, maxChars: number) {
  if (end - start <= maxChars) return [{ start, end, text: text.slice(start, end) }];
  return chunkText(text.slice(start, end), maxChars).map((piece) => ({
    start: start + piece.start,
    end: start + piece.end,
    text: piece.text,
  }));
}

/** Paragraphs (blank-line separated; fenced code kept whole), ATX headings and pipe tables. */
function markdownBlocks(text: string): Block[] {
  const blocks: Block[] = [];
  const lines = text.split('\n');
  let offset = 0;
  let current: Block | undefined;
  let inFence = false;
  const close = () => {
    if (current) blocks.push(current);
    current = undefined;
  };
  for (const line of lines) {
    const start = offset;
    const end = offset + line.length;
    offset = end + 1;
    const trimmed = line.trim();
    if (inFence || /^(```|~~~)/.test(trimmed)) {
      if (/^(```|~~~)/.test(trimmed)) inFence = !inFence;
      if (current?.kind === 'text') current.end = end;
      else {
        close();
        current = { kind: 'text', start, end };
      }
      continue;
    }
    const headingMatch = /^(#{1,6})\s+(.*?)\s*#*\s*$/.exec(trimmed);
    if (headingMatch) {
      close();
      blocks.push({ kind: 'heading', start, end, level: headingMatch[1]!.length, title: headingMatch[2]! });
      continue;
    }
    if (!trimmed) {
      close();
      continue;
    }
    const kind = trimmed.startsWith('|') ? 'table' : 'text';
    if (current && current.kind === kind) current.end = end;
    else {
      close();
      current = { kind, start, end };
    }
  }
  close();
  return blocks;
}
