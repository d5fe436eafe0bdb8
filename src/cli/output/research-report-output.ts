import { writeFile } from 'node:fs/promises';
import { extname, resolve } from 'node:path';
import { InputError } from '../../core/errors/index.js';
import type { ResearchReport } from '../../events/research-result.js';
import { type ReportTextFormat, renderReport } from '../../research/render-report.js';
import { countCitedStories } from '../../retrieval/page-groups.js';
import type { CliIo } from '../io/cli-io.js';
import { assertWritableFile } from '../io/output-file.js';
import { createTerminal, formatTokens, plural } from '../io/terminal-style.js';

/** The flags of research and resume that say where the report goes and in what format. */
export interface ReportOutputFlags {
  json?: boolean;
  format?: ReportTextFormat;
  output?: string;
  quiet?: boolean;
}

/** The format asked for: --json, --format, else the -o file's extension, else markdown. */
export function reportFormat(flags: ReportOutputFlags): ReportTextFormat {
  if (flags.json) {
    if (flags.format && flags.format !== 'json')
      throw new InputError(`--json and --format ${flags.format} disagree; give one of them`, {
        param: 'format',
      });
    return 'json';
  }
  if (flags.format) return flags.format;
  const extension = flags.output ? extname(flags.output).toLowerCase() : '';
  if (extension === '.html' || extension === '.htm') return 'html';
  if (extension === '.json') return 'json';
  return 'md';
}

/** The format and the -o file checked before any work: a bad combination or an unwritable file fails at once. */
export function checkReportOutput(io: Pick<CliIo, 'cwd'>, flags: ReportOutputFlags): void {
  reportFormat(flags);
  if (flags.output) assertWritableFile(resolve(io.cwd, flags.output), '-o', flags.output);
}

/**
 * A finished report in its format on stdout or in the -o file, then (unless --quiet) a summary
 * line on stderr: `research` and `resume` of a research run alike.
 */
export async function deliverReport(
  io: CliIo,
  flags: ReportOutputFlags,
  report: ResearchReport,
  /** Whether the run store keeps the run, so a failed -o write can point at `runs export`. */
  stored: boolean,
): Promise<void> {
  await deliver(
    io,
    flags,
    renderReport(report, reportFormat(flags)),
    'report',
    stored ? report.runId : undefined,
  );
  if (!flags.quiet) {
    const errors = createTerminal(io.stderr, io.env);
    errors.write(errors.style('dim', summaryLine(report)));
    for (const line of sectionLines(report)) errors.write(errors.style('dim', line));
  }
}

/** Text (a report, an outline) on stdout or in the -o file. */
export async function deliver(
  io: CliIo,
  flags: ReportOutputFlags,
  text: string,
  what: string,
  /** The stored run the text came from, named when the file cannot be written after all. */
  runId?: string,
): Promise<void> {
  if (!flags.output) {
    io.stdout.write(text);
    return;
  }
  const path = resolve(io.cwd, flags.output);
  try {
    await writeFile(path, text, 'utf8');
  } catch (error) {
    const kept = runId ? ` (it is kept: deepsearch runs export ${runId})` : '';
    throw new InputError(`cannot write the ${what} to ${flags.output}: ${(error as Error).message}${kept}`, {
      param: 'output',
    });
  }
  if (!flags.quiet) io.stderr.write(`${what} written to ${flags.output}\n`);
}

function summaryLine(report: ResearchReport): string {
  const { factCheck } = report;
  return `${plural(report.sections.length, 'section')}, ${plural(countCitedStories(report.references), 'source')}, fact-check ${factCheck.supported}/${factCheck.claims} supported (${factCheck.revised} revised, ${factCheck.removed} removed), ${formatTokens(report.usage.totalTokens)} tokens, ${Math.round(report.durationMs / 1000)} s`;
}

/**
 * One line per section: its coverage (questions and data points backed by quotes) and the pages
 * its text cites, so a thin section shows before the report is read.
 */
function sectionLines(report: ResearchReport): string[] {
  const byIndex = new Map(report.references.map((reference) => [reference.index, reference]));
  return report.sections.map((section) => {
    const items =
      section.questions.length +
      report.plan.dataPoints.filter((point) => point.sectionId === section.id).length;
    const covered = Math.round(section.coverage * items);
    const cited = new Set(
      [...section.markdown.matchAll(/\[\^(\d+)\]/g)].flatMap((match) => byIndex.get(Number(match[1])) ?? []),
    );
    // Copies of one story (alsoAt) are one source.
    return `  ${section.id} ${section.heading}: ${covered} of ${items} covered, ${plural(countCitedStories([...cited]), 'source')}`;
  });
}
