/**
 * Markup never reaches a page's text or markdown as text. A `<noscript>` tracking pixel, a
 * `<template>`, a `<textarea>` or `<xmp>` hold their content as raw text in some parsers and some
 * saved pages; a text node can carry escaped tags a CMS double-encoded; a link's or image's title
 * can hold HTML (Turndown prints titles). Those elements go, tags written out as text that load
 * a URL go (outside code), and titles with tags in them go. Mutates `element`; returns whether it changed anything.
 */
const rawTextSelector =
  'noscript, template, textarea, xmp, noembed, noframes, plaintext, script, style, iframe';
// An HTML tag written out: `<img src="…">`, `</p>`, `<br/>`. Only known element names, so that
// "a <b" comparison or "<3" in prose is left alone.
const tagText =
  /<\/?(?:a|abbr|article|aside|b|br|button|div|em|embed|figure|form|h[1-6]|i|iframe|img|input|li|link|meta|noscript|object|ol|p|picture|script|section|source|span|strong|style|svg|table|td|template|tr|ul|video)(?:\s[^<>]*)?\/?>/gi;
const loadsUrl = /\s(?:src|href|srcset|poster|data-[\w-]+)\s*=\s*["']?(?:https?:)?\/\//i;
const codeTags = new Set(['PRE', 'CODE', 'KBD', 'SAMP', 'VAR']);

export function dropRawMarkup(element: Element): boolean {
  let changed = false;
  for (const raw of [...element.querySelectorAll(rawTextSelector)]) {
    raw.remove();
    changed = true;
  }
  for (const titled of element.querySelectorAll('[title], [alt]')) {
    for (const name of ['title', 'alt']) {
      const value = titled.getAttribute(name);
      if (value && /<\/?[a-z][^<>]*>/i.test(value)) {
        titled.removeAttribute(name);
        changed = true;
      }
    }
  }
  return stripTagText(element) || changed;
}

function stripTagText(node: Node): boolean {
  let changed = false;
  for (let child = node.firstChild; child; child = child.nextSibling) {
    if (child.nodeType === 1) {
      if (!codeTags.has((child as Element).tagName)) changed = stripTagText(child) || changed;
      continue;
    }
    if (child.nodeType === 3) changed = stripTextRun(child) || changed;
  }
  return changed;
}

/** A run of adjacent text nodes (linkedom splits text at entities, so `&lt;img` is nodes apart) as one. */
function stripTextRun(first: ChildNode): boolean {
  const run: ChildNode[] = [first];
  for (let next = first.nextSibling; next && next.nodeType === 3; next = next.nextSibling) run.push(next);
  const text = run.map((node) => node.textContent ?? '').join('');
  if (!text.includes('<')) return false;
  // Only tags that load something (a URL in src, href...): a leaked pixel or embed. A page that
  // shows markup as its text (a tutorial, a security write-up: `<script>alert(1)</script>`) keeps it.
  const stripped = text.replace(tagText, (tag) => (loadsUrl.test(tag) ? ' ' : tag));
  if (stripped === text) return false;
  first.textContent = stripped;
  for (const node of run.slice(1)) node.remove();
  return true;
}
