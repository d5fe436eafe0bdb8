import { describe, expect, it } from 'vitest';
import { renderReportHtml } from './render-report-html.js';
import type { RenderableReport } from './render-report-markdown.js';
import { renderReportMarkdown } from './render-report-markdown.js';

const report = {
  title: 'Obesity drug coverage',
  summary: 'HCA dropped coverage.[^1] Others may follow.[^2]',
  sections: [],
  references: [
    {
      index: 1,
      url: 'https://www.statnews.com/story',
      title: 'HCA tells workers to buy obesity drugs',
      quote: 'HCA declined to comment.',
      quoteKind: 'exact',
      alsoAt: ['https://courier.example/wire/story', 'https://mirror.example/"x"'],
    },
    {
      index: 2,
      url: 'https://business.example/memo',
      title: 'HCA ends coverage',
      quote: 'Several large employers are weighing similar moves.',
      quoteKind: 'exact',
    },
  ],
  followUps: [],
  contradictions: [],
  factCheck: { claims: 0, supported: 0, revised: 0, removed: 0 },
  language: 'English',
} as unknown as RenderableReport;

describe("a report's footnotes list a story once, with the sites that carry it too", () => {
  it('markdown: "also at N sites" after the original', () => {
    const markdown = renderReportMarkdown(report);
    expect(markdown).toContain(
      '[^1]: "HCA declined to comment." [HCA tells workers to buy obesity drugs](https://www.statnews.com/story) (also at 2 sites: courier.example, mirror.example)',
    );
    expect(markdown).toMatch(/\[\^2\]: .*\(https:\/\/business\.example\/memo\)$/m);
  });

  it('HTML: the copies as small links, escaped', () => {
    const html = renderReportHtml(report);
    expect(html).toContain(
      '<span class="host also-at">also at 2 sites: <a href="https://courier.example/wire/story" rel="noopener noreferrer">courier.example</a>',
    );
    expect(html).toContain('href="https://mirror.example/&#34;x&#34;"');
    expect(html.match(/also-at/g)).toHaveLength(1);
  });
});
