import { extractHtmlPage } from '../src/providers/reader/builtin/extract-html-page.ts';
for (const h of ['<p>hello <b>there</b></p>', '<title>T</title><meta name="author" content="Ann"><p>hello world</p>', '<html><head><title>H</title></head><p>x in html</p></html>', '<!doctype html><title>T</title><p>hello</p>', '  <p>a</p><p>b</p>']) {
  const p = extractHtmlPage(h, 'file:///x.html');
  console.log(JSON.stringify(h), '=>', JSON.stringify({t: p.title, text: p.text, md: p.markdown, by: p.byline}));
}
