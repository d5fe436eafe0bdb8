import type { ReportTextFormat } from '../../research/render-report.js';

/**
 * The values of research's and resume's `--format`. Here, beside the other flags, because the
 * command definitions load at every start: they must not pull in the report's renderers.
 */
export const reportFormats = ['md', 'html', 'json'] as const satisfies readonly ReportTextFormat[];
