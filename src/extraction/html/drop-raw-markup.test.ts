import { parseHTML } from 'linkedom';
import { describe, expect, it } from 'vitest';
import { domToText } from './dom-to-text.js';
import { dropRawMarkup } from './drop-raw-markup.js';
import { extractHtmlPage } from './extract-html-page.js';
import { htmlToMarkdown } from './html-to-markdown.js';

function body(html: string): Element {
  const { document } = parseHTML(`<html><body>${html}</body></html>`);
  return document.querySelector('body') as unknown as Element;
}

describe('dropRawMarkup', () => {
  it('removes noscript, template and raw-text elements', () => {
    const element = body(
      '<p>Story text.</p><noscript><img src="https://t.example/pixel.gif" width="1" height="1"></noscript><template><div>Later</div></template><textarea>&lt;b&gt;x&lt;/b&gt;</textarea><xmp><i>raw</i></xmp>',
    );
    expect(dropRawMarkup(element)).toBe(true);
    expect(element.innerHTML).toBe('<p>Story text.</p>');
  });

  it('removes tags written out as text outside code, and keeps them in code', () => {
    const element = body(
      '<p>Before &lt;img src="https://t.example/p.gif" alt=""&gt; after.</p><pre>&lt;div class="x"&gt;code&lt;/div&gt;</pre><p>a &lt; b and 3 &lt;4</p>',
    );
    dropRawMarkup(element);
    const text = domToText(element);
    expect(text).not.toContain('<img');
    expect(text).toContain('Before');
    expect(text).toContain('<div class="x">code</div>');
    expect(text).toContain('a < b and 3 <4');
  });

  it('drops a link title holding HTML, which Turndown would print', () => {
    const element = body('<p><a href="https://example.com/" title="<p>Caption</p>">Link</a></p>');
    dropRawMarkup(element);
    expect(htmlToMarkdown(element.innerHTML)).toBe('[Link](https://example.com/)');
  });

  it('never prints a noscript tracking pixel in a page read whole', () => {
    const paragraph =
      'The story goes on with enough words in the paragraph for it to count as real content here.';
    const page = extractHtmlPage(
      `<html><body><article><h1>Title</h1><p>${paragraph}</p><noscript>&lt;img height="1" width="1" src="https://t.example/tr?id=1"/&gt;</noscript><p>${paragraph}</p><p>Text &lt;img src="https://t.example/x.gif"&gt; in a paragraph.</p></article></body></html>`,
      'https://example.com/story',
    );
    expect(page.text).not.toMatch(/<img|<\/?noscript/i);
    expect(page.markdown).not.toMatch(/<img|<\/?noscript|&lt;img/i);
    expect(page.text).toContain('The story goes on');
  });
});

describe('dropRawMarkup keeps markup a page shows as its text', () => {
  it('a write-up quoting <script> and an <img> without a URL keeps them', () => {
    const element = body(
      '<p>The page literally says &lt;script&gt;alert(1)&lt;/script&gt; and &lt;img src=x onerror=alert(2)&gt; here.</p>',
    );
    expect(dropRawMarkup(element)).toBe(false);
    expect(domToText(element)).toContain('<script>alert(1)</script> and <img src=x onerror=alert(2)> here.');
  });
});
