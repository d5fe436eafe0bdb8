const bodyTag = /<body[\s>]/i;
const headElement = /<head[\s>][\s\S]*?<\/head\s*>/i;
const headOnlyTags = /<title[\s>][\s\S]*?<\/title\s*>|<(?:meta|link|base)\b[^>]*>/gi;

/**
 * HTML that linkedom reads as a document. linkedom is not a full HTML5 parser: without a `<body>`
 * (a fragment such as `<p>hello <b>there</b></p>`, or a page that omits the optional tags) it keeps
 * no body and the text is lost. Such input gets its head (the `<head>` element, or loose title, meta,
 * link and base tags) and body written out.
 */
export function completeHtmlDocument(html: string): string {
  if (bodyTag.test(html)) return html;
  let rest = html.replace(/<!doctype[^>]*>/i, '').replace(/<\/?html\b[^>]*>/gi, '');
  let head = '';
  const headMatch = headElement.exec(rest);
  if (headMatch) {
    head = headMatch[0].replace(/^<head[^>]*>|<\/head\s*>$/gi, '');
    rest = rest.replace(headMatch[0], '');
  } else {
    head = (rest.match(headOnlyTags) ?? []).join('');
    rest = rest.replace(headOnlyTags, '');
  }
  return `<!doctype html><html><head>${head}</head><body>${rest}</body></html>`;
}
