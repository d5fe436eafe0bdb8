import { Marked, type Tokens } from 'marked';
import type { Reference } from '../events/deep-search-result.js';
import type { Contradiction } from '../events/research-result.js';
import { hostOf } from '../retrieval/normalize-url.js';
import { alsoAtPhrase } from '../retrieval/page-groups.js';
import { describeSkipped, type SkippedPage, skipReasonPhrase } from '../retrieval/skipped-page.js';
import { type ReportLabels, reportLabels } from './render-labels.js';
import type { RenderableReport } from './render-report-markdown.js';
import { reportStyle } from './render-report-style.js';

/**
 * The report as one self-contained HTML page: inline style, footnotes as links to the
 * references (and back), nothing loaded from the network when it is viewed. The text comes from
 * a model that read web pages, so raw HTML in it is shown as text and only http(s) links are
 * kept. A mermaid chart stays a labelled code block (its renderer is too large to inline).
 */
export function renderReportHtml(report: RenderableReport & { generatedAt?: string }): string {
  const labels = reportLabels(report.language);
  const markdown = createReportMarked(new Set(report.references.map((reference) => reference.index)), labels);
  const body = [
    `<header><h1>${escapeHtml(report.title)}</h1>${report.generatedAt ? `<p class="meta">${escapeHtml(report.generatedAt)}</p>` : ''}</header>`,
    report.summary
      ? `<section class="summary"><h2>${labels.summary}</h2>${markdown.parse(report.summary)}</section>`
      : '',
    ...report.sections.map(
      (section) =>
        `<section id="${escapeHtml(section.id)}"><h2>${escapeHtml(section.heading)}</h2>${markdown.parse(section.markdown)}</section>`,
    ),
    report.contradictions.length
      ? `<section class="disagree"><h2>${labels.disagree}</h2>${report.contradictions.map((item) => contradictionHtml(item, labels)).join('')}</section>`
      : '',
    report.followUps.length
      ? `<section class="follow-ups"><h2>${labels.followUps}</h2><ol>${report.followUps.map((question) => `<li>${escapeHtml(question)}</li>`).join('')}</ol></section>`
      : '',
    report.skipped?.length
      ? `<section class="not-read"><h2>${labels.notRead}</h2><p>${escapeHtml(describeSkipped(report.skipped))}.</p><ul>${report.skipped.map(skippedHtml).join('')}</ul></section>`
      : '',
    report.references.length
      ? `<section class="references"><h2>${labels.references}</h2><ol>${report.references.map(referenceHtml).join('')}</ol></section>`
      : '',
  ];
  return `<!doctype html>
<html lang="${labels.tag}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'">
<title>${escapeHtml(report.title)}</title>
<style>${reportStyle}</style>
</head>
<body>
<main>
${body.filter(Boolean).join('\n')}
</main>
</body>
</html>
`;
}

function skippedHtml(page: SkippedPage): string {
  return `<li>${escapeHtml(page.url)}: ${escapeHtml(skipReasonPhrase(page.reason))} (${escapeHtml(page.detail)})</li>`;
}

function createReportMarked(known: ReadonlySet<number>, labels: ReportLabels): Marked {
  const marked = new Marked({ gfm: true });
  marked.use({
    extensions: [
      {
        name: 'footnoteRef',
        level: 'inline',
        start: (source: string) => {
          const at = source.indexOf('[^');
          return at === -1 ? undefined : at;
        },
        tokenizer: (source: string) => {
          const match = /^\[\^(\d+)\]/.exec(source);
          return match ? { type: 'footnoteRef', raw: match[0], index: Number(match[1]) } : undefined;
        },
        renderer: (token) =>
          known.has(token.index)
            ? `<sup class="fn"><a href="#ref-${token.index}">${token.index}</a></sup>`
            : '',
      },
    ],
    renderer: {
      html: (token: Tokens.HTML | Tokens.Tag) => escapeHtml(token.text),
      link(token: Tokens.Link) {
        const text = this.parser.parseInline(token.tokens);
        return safeUrl(token.href)
          ? `<a href="${escapeHtml(token.href)}" rel="noopener noreferrer">${text}</a>`
          : text;
      },
      // Nothing is fetched when the page is viewed: an image becomes a link to it.
      image: (token: Tokens.Image) =>
        safeUrl(token.href)
          ? `<a href="${escapeHtml(token.href)}" rel="noopener noreferrer">${escapeHtml(token.text || token.href)}</a>`
          : escapeHtml(token.text),
      code: (token: Tokens.Code) =>
        token.lang === 'mermaid'
          ? `<figure class="chart"><figcaption>${labels.chart}</figcaption><pre class="mermaid"><code>${escapeHtml(token.text)}</code></pre></figure>`
          : `<pre><code>${escapeHtml(token.text)}</code></pre>`,
    },
  });
  return marked;
}

function contradictionHtml(contradiction: Contradiction, labels: ReportLabels): string {
  const sides = contradiction.sides.map(
    (side) =>
      `<li><strong>${escapeHtml(side.claim)}</strong><blockquote>${escapeHtml(side.quote)}</blockquote><span class="source">${link(side.url, hostOf(side.url))}${side.trust === undefined ? '' : ` · ${labels.trust} ${side.trust.toFixed(2)}`}</span></li>`,
  );
  return `<div class="contradiction"><h3>${escapeHtml(contradiction.topic)}</h3><ul>${sides.join('')}</ul></div>`;
}

function referenceHtml(reference: Reference): string {
  const alsoAt = reference.alsoAt?.length
    ? ` <span class="host also-at">${alsoAtPhrase(reference.alsoAt.length)}: ${reference.alsoAt.map((url) => link(url, hostOf(url) || url)).join(', ')}</span>`
    : '';
  return `<li id="ref-${reference.index}"><blockquote>${escapeHtml(reference.quote.replace(/\s+/g, ' '))}</blockquote>${link(reference.url, reference.title || hostOf(reference.url))} <span class="host">${escapeHtml(hostOf(reference.url))}</span>${alsoAt}</li>`;
}

function link(url: string, text: string): string {
  return safeUrl(url)
    ? `<a href="${escapeHtml(url)}" rel="noopener noreferrer">${escapeHtml(text)}</a>`
    : escapeHtml(text);
}

function safeUrl(url: string): boolean {
  return /^(https?:|mailto:|#)/i.test(url.trim());
}

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);
}
