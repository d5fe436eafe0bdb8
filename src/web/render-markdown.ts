import DOMPurify from 'dompurify';
import { Marked } from 'marked';
import { type SourceRef, splitFootnoteMarkers, stripFootnoteDefinitions } from './footnotes.js';

/** Bare line-break and sub/superscript tags (no attributes) are the only raw HTML kept. */
const keptTag = /^<\/?(?:br|sub|sup)\s*\/?>$/i;

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);

// Raw HTML in an answer (which may echo a page) is shown as the text it is, not parsed: markup
// that never reaches a parser can neither run nor trip the page's CSP (Chromium reports an inline
// handler even in the sanitiser's inert document).
const marked = new Marked({
  gfm: true,
  breaks: false,
  async: false,
  renderer: { html: ({ text }) => (keptTag.test(text.trim()) ? text : escapeHtml(text)) },
});

// Links from answers open in a new tab without handing the page to the target; only http(s)
// and in-page anchors survive (DOMPurify already drops javascript: URLs; data: too, here).
DOMPurify.addHook('afterSanitizeAttributes', (node) => {
  if (node.tagName === 'A') {
    const href = node.getAttribute('href') ?? '';
    if (!/^(https?:|#)/i.test(href)) node.removeAttribute('href');
    else if (!href.startsWith('#')) {
      node.setAttribute('target', '_blank');
      node.setAttribute('rel', 'noopener noreferrer');
    }
  }
});

/**
 * Markdown (an answer, a report) to a sanitised fragment: marked renders (raw HTML as text),
 * DOMPurify removes what markdown itself can make unsafe (javascript: links, images), then footnote markers `[^n]` in text become buttons built
 * with DOM calls (never HTML strings) that carry the reference number.
 */
export function renderMarkdown(markdown: string, references: readonly SourceRef[]): DocumentFragment {
  const html = marked.parse(stripFootnoteDefinitions(markdown)) as string;
  const fragment = DOMPurify.sanitize(html, {
    RETURN_DOM_FRAGMENT: true,
    // img: a remote image in an answer would call out to its host (the CSP forbids it anyway).
    FORBID_TAGS: ['img', 'style', 'form', 'input', 'button', 'textarea', 'select', 'iframe', 'svg', 'math'],
    FORBID_ATTR: ['style', 'id', 'class', 'name'],
  });
  linkFootnotes(fragment, new Set(references.map((reference) => reference.index)));
  return fragment;
}

/** Replaces `[^n]` in text nodes (not in code) with footnote buttons for the known references. */
export function linkFootnotes(root: DocumentFragment | Element, known: ReadonlySet<number>): void {
  const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
  const texts: Text[] = [];
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const text = node as Text;
    if (!text.parentElement?.closest('code, pre') && /\[\^\d/.test(text.data)) texts.push(text);
  }
  for (const text of texts) {
    const parts = splitFootnoteMarkers(text.data);
    const replacement = document.createDocumentFragment();
    for (const part of parts) {
      if (typeof part === 'string') replacement.append(part);
      else if (known.has(part)) replacement.append(footnoteButton(part));
      else replacement.append(`[^${part}]`);
    }
    text.replaceWith(replacement);
  }
}

function footnoteButton(index: number): HTMLElement {
  const sup = document.createElement('sup');
  const button = document.createElement('button');
  button.type = 'button';
  button.className = 'fn';
  button.dataset.ref = String(index);
  button.textContent = String(index);
  button.setAttribute('aria-label', `source ${index}`);
  button.setAttribute('aria-haspopup', 'dialog');
  sup.append(button);
  return sup;
}
