import { InputError } from '../../../core/errors/index.js';
import type { ResearchReport } from '../../../events/research-result.js';
import type { ChromiumStatus } from '../../../platform/browser/launch-chromium.js';
import { printHtmlToPdf } from '../../../platform/browser/print-pdf.js';
import { downloadName } from '../../../research/download-name.js';
import { renderReport } from '../../../research/render-report.js';
import type { RunRecord } from '../../../runs/run-record.js';
import { HttpError } from '../../http/http-error.js';

const formats = ['md', 'html', 'json', 'pdf'] as const;
export type ReportExportFormat = (typeof formats)[number];

const contentTypes: Record<ReportExportFormat, string> = {
  md: 'text/markdown; charset=utf-8',
  html: 'text/html; charset=utf-8',
  json: 'application/json; charset=utf-8',
  pdf: 'application/pdf',
};

/**
 * The formats GET /v1/research/{id}/report serves for this run: none without a report; PDF only
 * where Chromium runs (the page offers only what is listed).
 */
export function reportFormats(record: RunRecord, chromium: ChromiumStatus): ReportExportFormat[] {
  if (!reportOf(record)) return [];
  return chromium.available ? [...formats] : formats.filter((format) => format !== 'pdf');
}

/**
 * A finished research run's report as a file to download. PDF is Chromium's print of the HTML
 * page; without Chromium it is refused (501) with what to do, and HTML works as before.
 */
export async function exportReport(
  record: RunRecord,
  format: string | undefined,
  chromium: ChromiumStatus,
): Promise<Response> {
  const chosen = (format ?? 'md') as ReportExportFormat;
  if (!formats.includes(chosen))
    throw new InputError(
      `format must be one of ${formats.join(', ')} (got "${String(format).slice(0, 20)}")`,
      {
        param: 'format',
        code: 'invalid_value',
      },
    );
  const report = reportOf(record);
  if (!report)
    throw new InputError(
      record.mode === 'research'
        ? `run ${record.id} has no report (${record.status}): only a completed research run has one`
        : `run ${record.id} is a deep search, not research: its answer is in GET /v1/research/${record.id}`,
      { code: 'no_report' },
    );
  let body: string | Uint8Array;
  if (chosen === 'pdf') {
    if (!chromium.available)
      throw new HttpError(`PDF export needs Chromium where the server runs: ${chromium.reason}; HTML works`, {
        status: 501,
        type: 'server_error',
        code: 'pdf_unavailable',
      });
    body = await printHtmlToPdf(renderReport(report, 'html'), { chromium });
  } else body = renderReport(report, chosen);
  return new Response(body as BodyInit, {
    headers: {
      'content-type': contentTypes[chosen],
      'content-disposition': `attachment; filename="${downloadName(report.title, chosen, 'report')}"`,
      'x-content-type-options': 'nosniff',
      // The HTML page is a download, not a page of this server: nothing in it may run here.
      'content-security-policy': "default-src 'none'; style-src 'unsafe-inline'; sandbox",
    },
  });
}

function reportOf(record: RunRecord): ResearchReport | undefined {
  if (record.mode !== 'research' || record.status !== 'completed' || !record.result) return undefined;
  const result = record.result as { markdown?: unknown; report?: ResearchReport };
  const report = typeof result.markdown === 'string' ? (result as ResearchReport) : result.report;
  return report && typeof report.markdown === 'string' ? report : undefined;
}
