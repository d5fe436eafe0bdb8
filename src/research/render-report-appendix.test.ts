import { describe, expect, it } from 'vitest';
import { renderReportHtml } from './render-report-html.js';
import type { RenderableReport } from './render-report-markdown.js';
import { renderReportMarkdown } from './render-report-markdown.js';

const report: RenderableReport = {
  title: 'Heat pumps',
  summary: 'Sales fell.',
  sections: [],
  references: [],
  followUps: [],
  contradictions: [],
  factCheck: { claims: 0, supported: 0, revised: 0, removed: 0, items: [] },
  language: 'French',
  skipped: [
    { url: 'https://a.example/x', reason: 'blocked', detail: 'a bot check answered with HTTP 403' },
    { url: 'https://b.example/<y>', reason: 'timeout', detail: 'did not answer within 20s' },
  ],
} as unknown as RenderableReport;

describe('the report appendix of pages that could not be read', () => {
  it('is a markdown section in the report language, with the count and each page with why', () => {
    const markdown = renderReportMarkdown(report);
    expect(markdown).toContain(
      '## Pages qui n’ont pas pu être lues\n\n2 pages could not be read: 1 blocked by a bot check, 1 timed out.\n\n' +
        '- <https://a.example/x>: blocked by a bot check (a bot check answered with HTTP 403)\n' +
        '- <https://b.example/<y>>: timed out (did not answer within 20s)',
    );
    expect(renderReportMarkdown({ ...report, skipped: [] })).not.toContain('## Pages');
  });

  it('is a section of the HTML report too, its text escaped', () => {
    const html = renderReportHtml(report);
    expect(html).toContain('<section class="not-read"><h2>Pages qui n’ont pas pu être lues</h2>');
    expect(html).toContain('<li>https://b.example/&#60;y&#62;: timed out (did not answer within 20s)</li>');
  });
});
