import { parseHTML } from 'linkedom';
for (const h of ['<p>hello <b>there</b></p>', '<title>T</title><p>hello</p>', '<html><p>x</p></html>', '<!doctype html><title>T</title><p>hello</p>', '<body><p>x</p></body>', '  <p>a</p><p>b</p>']) {
  const { document } = parseHTML(h);
  console.log(JSON.stringify(h), '=>', document.documentElement?.localName, JSON.stringify(document.body?.textContent), document.title);
}
