const blockTags = new Set([
  'ADDRESS',
  'ARTICLE',
  'ASIDE',
  'BLOCKQUOTE',
  'BR',
  'DD',
  'DETAILS',
  'DIV',
  'DL',
  'DT',
  'FIGCAPTION',
  'FIGURE',
  'FOOTER',
  'H1',
  'H2',
  'H3',
  'H4',
  'H5',
  'H6',
  'HEADER',
  'HR',
  'LI',
  'MAIN',
  'NAV',
  'OL',
  'P',
  'PRE',
  'SECTION',
  'SUMMARY',
  'TABLE',
  'TBODY',
  'THEAD',
  'TR',
  'UL',
]);
const skippedTags = new Set(['SCRIPT', 'STYLE', 'NOSCRIPT', 'TEMPLATE', 'SVG', 'IFRAME']);

interface TextNodeLike {
  nodeType: number;
  nodeName: string;
  textContent: string | null;
  childNodes: ArrayLike<TextNodeLike>;
}

/**
 * Visible text of an element with one line per block (paragraph, heading, list item, table cell
 * row), spaces collapsed inside lines. Quotes are verified against this, so block boundaries must
 * not glue two sentences into one word the way textContent does.
 */
export function domToText(root: TextNodeLike): string {
  const parts: string[] = [];
  walk(root, parts);
  return parts
    .join('')
    .split('\n')
    .map((line) => line.replace(/[ \t\u00a0]+/g, ' ').trim())
    .filter((line) => line.length > 0)
    .join('\n');
}

function walk(node: TextNodeLike, parts: string[]): void {
  if (node.nodeType === 3) {
    parts.push(node.textContent ?? '');
    return;
  }
  if (node.nodeType !== 1 && node.nodeType !== 9 && node.nodeType !== 11) return;
  const tag = node.nodeName.toUpperCase();
  if (skippedTags.has(tag)) return;
  const block = blockTags.has(tag);
  if (block) parts.push('\n');
  const children = node.childNodes;
  for (let index = 0; index < children.length; index++) walk(children[index]!, parts);
  if (tag === 'TD' || tag === 'TH') parts.push(' ');
  else if (block) parts.push('\n');
}
