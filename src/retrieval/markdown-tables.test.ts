import { describe, expect, it } from 'vitest';
import { extractMarkdownTables } from './markdown-tables.js';

describe('extractMarkdownTables', () => {
  it('finds each pipe table with its header and separator, and nothing else', () => {
    const markdown = `# Populations

Some text | with a pipe.

| Country | Population |
| --- | ---: |
| France | 68.2 |
| Spain | 48.6 |

Between tables.
|a|b|
|:-|-|
|1|2|
| not | a table |
| because | no separator |`;
    expect(extractMarkdownTables(markdown)).toEqual([
      '| Country | Population |\n| --- | ---: |\n| France | 68.2 |\n| Spain | 48.6 |',
      '|a|b|\n|:-|-|\n|1|2|\n| not | a table |\n| because | no separator |',
    ]);
  });

  it('ignores a header without rows and text without tables', () => {
    expect(extractMarkdownTables('| a | b |\n| - | - |\n\nplain text')).toEqual([]);
    expect(extractMarkdownTables('no tables here')).toEqual([]);
  });
});
