import { describe, expect, it } from 'vitest';
import { markdownToText } from './markdown-to-text.js';

describe('markdownToText', () => {
  it('keeps the words and drops the markup: headings, emphasis, links, images, lists, tables, fences', () => {
    const markdown = [
      '# Title',
      '',
      'Some **bold**, _italic_ and `code` with a [link](https://x.example/a) and ![logo](/logo.png).',
      '',
      '- [x] done item',
      '2. numbered item',
      '> quoted line',
      '',
      '| Award | Film |',
      '| --- | :---: |',
      '| Best Picture | Green Book |',
      '```js',
      'const snake_case_name = 1;',
      '```',
    ].join('\n');
    expect(markdownToText(markdown)).toBe(
      [
        'Title',
        'Some bold, italic and code with a link and .',
        'done item',
        'numbered item',
        'quoted line',
        'Award Film',
        'Best Picture Green Book',
        'const snake_case_name = 1;',
      ].join('\n'),
    );
  });
});
