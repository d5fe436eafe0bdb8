import { parseHTML } from 'linkedom';
import { describe, expect, it } from 'vitest';
import { domToText } from './dom-to-text.js';
import { dropTrailingCitations } from './drop-trailing-citations.js';
import { pruneArticle } from './prune-article.js';

const story = [
  'The council vote passed seven to two after a long night of public comment on road repairs.',
  'The budget gap comes to four million dollars, mostly from lower sales tax receipts this spring.',
  'The mayor’s answer was to delay two hiring plans and ask the state for bridge money again.',
]
  .map((text) => `<p>${text}</p>`)
  .join('');
const sources = [
  '“City budget 2025.” City of Example, https://example.org/budget. Accessed 11 Apr. 2025.',
  '“Road repair plan.” Example Gazette, https://gazette.example.com/roads. Accessed 4 Nov. 2025.',
  'State bridge fund. www.state.example.gov/bridges. Accessed 4 Nov. 2025.',
];
const sourceList = `<h2>Article Sources</h2><ol>${sources.map((line) => `<li>${line}</li>`).join('')}</ol>`;

function content(inner: string): Element {
  const { document } = parseHTML(`<html><body><div id="content">${inner}</div></body></html>`);
  return document.querySelector('#content') as unknown as Element;
}

function pruned(inner: string): { removed: boolean; text: string } {
  const element = content(inner);
  const removed = dropTrailingCitations(element);
  return { removed, text: domToText(element) };
}

describe('dropTrailingCitations', () => {
  it('drops the list of sources that ends a story, its label, and the shorter lines after it', () => {
    const { removed, text } = pruned(
      `${story}${sourceList}<p>Get our weekly newsletter.</p><p>Back to top</p>`,
    );
    expect(removed).toBe(true);
    expect(text).toContain('The budget gap');
    expect(text).not.toContain('Accessed');
    expect(text).not.toContain('Article Sources');
    expect(text).not.toContain('newsletter');
    expect(text).not.toContain('Back to top');
  });

  it('drops bare addresses on the lines of one paragraph, and a label ending in a colon', () => {
    const urls = ['https://example.org/a', 'https://example.org/b', 'https://example.org/c'].join('<br>');
    const { removed, text } = pruned(`${story}<p><b>Sources:</b></p><p>${urls}</p>`);
    expect(removed).toBe(true);
    expect(text).not.toContain('example.org');
    expect(text).not.toContain('Sources:');
    expect(text).toContain('The mayor’s answer');
  });

  it('keeps one or two addresses: a story may end on its source', () => {
    const two = `<ol>${sources
      .slice(0, 2)
      .map((line) => `<li>${line}</li>`)
      .join('')}</ol>`;
    expect(pruned(`${story}${two}`)).toEqual({ removed: false, text: expect.stringContaining('Accessed') });
  });

  it('keeps a list of addresses followed by more of the story', () => {
    const { removed, text } = pruned(`${sourceList}${story}`);
    expect(removed).toBe(false);
    expect(text).toContain('gazette.example.com');
  });

  it('keeps a block when one of its lines writes out no address', () => {
    const mixed = `<p>${sources.join('<br>')}<br>Our reporters checked every figure with the city.</p>`;
    expect(pruned(`${story}${mixed}`).removed).toBe(false);
  });

  it('keeps paragraphs of prose that mention an address', () => {
    const long = (topic: string) =>
      `<p>${topic} can be read at https://example.org/${topic}, where the city publishes every document of the session: the minutes, the votes of each member, the budget tables, the letters residents sent before the meeting, and the answers the departments wrote to them over the following weeks, once the clerk had scanned the paper copies kept in the basement of the old town hall.</p>`;
    expect(pruned(`${story}${['minutes', 'votes', 'letters'].map(long).join('')}`).removed).toBe(false);
  });

  it('runs only on news stories and blog posts', () => {
    expect(pruneArticle(content(`${story}${sourceList}`), {})).toContain('Accessed');
    expect(pruneArticle(content(`${story}${sourceList}`), { story: true })).not.toContain('Accessed');
  });
});
