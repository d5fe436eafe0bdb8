/**
 * The pipe tables of a markdown text (as the reader writes them from HTML tables), each as its own
 * text with the header and separator rows. The coding action hands them to the model's code whole,
 * where snippets would cut a table at a chunk boundary.
 */
export function extractMarkdownTables(markdown: string): string[] {
  const tables: string[] = [];
  let rows: string[] = [];
  const flush = () => {
    // A header, the |---| separator and at least one row.
    if (rows.length >= 3 && isSeparator(rows[1]!)) tables.push(rows.join('\n'));
    rows = [];
  };
  for (const line of markdown.split('\n')) {
    const trimmed = line.trim();
    if (trimmed.startsWith('|') && trimmed.length > 1) rows.push(trimmed);
    else flush();
  }
  flush();
  return tables;
}

function isSeparator(row: string): boolean {
  return /^\|(\s*:?-{1,}:?\s*\|)+$/.test(row);
}
