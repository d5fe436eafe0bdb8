import type TurndownService from 'turndown';

interface LargeTable {
  columns: number;
  firstRow: Node | null;
}

/**
 * Turndown rules that write a table of more than `maxCells` cells as plain markdown rows, in one
 * pass. The GFM plugin's table rules ask for `table.rows` again for every column of the header
 * (getColumnAlignment, tableColCount), and domino builds that list anew each time, so their cost
 * grows with the square of the rows: 2,000 cells took 6 s, 25,000 cells about a minute. These
 * rules are added after the plugin, so Turndown tries them first; they leave small tables to it.
 * The rows keep the plugin's shape (`| a | b |`, the first row as header), without alignment.
 */
export function useLargeTableRules(service: TurndownService, maxCells: number): void {
  const tables = new WeakMap<Node, LargeTable | undefined>();
  const largeTable = (node: Node | null): LargeTable | undefined => {
    if (node?.nodeName !== 'TABLE') return undefined;
    if (!tables.has(node)) tables.set(node, measure(node as HTMLTableElement, maxCells));
    return tables.get(node);
  };
  const inLargeTable = (node: Node) => largeTable(parentTable(node)) !== undefined;
  service.addRule('largeTableCell', {
    filter: (node) => (node.nodeName === 'TD' || node.nodeName === 'TH') && inLargeTable(node),
    replacement: (content, node) => {
      const text = content.trim().replace(/\n+/g, ' ').replace(/\|/g, '\\|');
      const first = (node as Element).previousElementSibling === null;
      return `${first ? '|' : ''} ${text} |`;
    },
  });
  service.addRule('largeTableRow', {
    filter: (node) => node.nodeName === 'TR' && inLargeTable(node),
    replacement: (content, node) => {
      const table = largeTable(parentTable(node))!;
      const header = node === table.firstRow ? `\n|${' --- |'.repeat(table.columns)}` : '';
      return `\n${content}${header}`;
    },
  });
  service.addRule('largeTable', {
    filter: (node) => largeTable(node) !== undefined,
    replacement: (content, node) => {
      const caption = (node as HTMLTableElement).querySelector('caption')?.textContent?.trim();
      const rows = content.replace(/\n+/g, '\n').trim();
      return `\n\n${caption ? `${caption}\n\n` : ''}${rows}\n\n`;
    },
  });
}

function measure(table: HTMLTableElement, maxCells: number): LargeTable | undefined {
  let cells = 0;
  let columns = 0;
  // domino's NodeList is array-like but not iterable.
  const rows = table.querySelectorAll('tr');
  for (let index = 0; index < rows.length; index++) {
    const row = rows[index]!;
    let count = 0;
    for (let cell = row.firstElementChild; cell; cell = cell.nextElementSibling) {
      if (cell.nodeName === 'TD' || cell.nodeName === 'TH') count++;
    }
    cells += count;
    columns = Math.max(columns, count);
  }
  return cells > maxCells ? { columns, firstRow: rows[0] ?? null } : undefined;
}

function parentTable(node: Node): Node | null {
  let parent = node.parentNode;
  while (parent && parent.nodeName !== 'TABLE') parent = parent.parentNode;
  return parent;
}
