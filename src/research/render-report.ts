import type { ResearchReport } from '../events/research-result.js';
import { renderReportHtml } from './render-report-html.js';

/** The formats a finished report is written in (the CLI's --format, the API's export). */
export type ReportTextFormat = 'md' | 'html' | 'json';

/** A finished report as a document: its markdown, one self-contained HTML page, or its JSON. */
export function renderReport(
  report: ResearchReport,
  format: ReportTextFormat,
  options: { now?: Date } = {},
): string {
  if (format === 'json') return `${JSON.stringify(report, null, 2)}\n`;
  if (format === 'html')
    return renderReportHtml({
      ...report,
      language: report.plan.language,
      generatedAt: (options.now ?? new Date()).toISOString().slice(0, 10),
    });
  return report.markdown;
}
