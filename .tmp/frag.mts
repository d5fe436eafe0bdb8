import { extractHtmlPage } from '../src/providers/reader/builtin/extract-html-page.ts';
console.log(JSON.stringify(extractHtmlPage('<p>hello <b>there</b></p>', 'file:///x.html')));
console.log(JSON.stringify(extractHtmlPage('<div><p>hello <b>there</b></p><p>second para</p></div>', 'file:///x.html')));
import { parseHTML } from 'linkedom';
const { document } = parseHTML('<p>hello <b>there</b></p>');
console.log(document.body?.outerHTML, document.documentElement?.outerHTML);
