import type { Reference } from '../events/deep-search-result.js';
import type { Contradiction } from '../events/research-result.js';
import { hostOf } from '../retrieval/normalize-url.js';
import { describeAlsoAt } from '../retrieval/page-groups.js';
import { describeSkipped, type SkippedPage, skipReasonPhrase } from '../retrieval/skipped-page.js';
import { reportLabels } from './render-labels.js';
import type { WrittenReport } from './write/write-report.js';

/** What a report renderer needs: the written report and the language it is in. */
export type RenderableReport = Omit<WrittenReport, 'language'> & {
  language?: string | undefined;
  /** Pages the task chose but could not read: a short appendix before the footnotes. */
  skipped?: readonly SkippedPage[] | undefined;
};

/** The whole report as one markdown document: title, summary, sections, disagreements, follow-ups, footnotes. */
export function renderReportMarkdown(report: RenderableReport): string {
  const labels = reportLabels(report.language);
  const parts = [`# ${report.title}`, report.summary];
  for (const section of report.sections) parts.push(`## ${section.heading}\n\n${section.markdown}`);
  if (report.contradictions.length > 0)
    parts.push(
      `## ${labels.disagree}\n\n${report.contradictions.map((item) => contradictionMarkdown(item, labels.trust)).join('\n')}`,
    );
  if (report.followUps.length > 0)
    parts.push(
      `## ${labels.followUps}\n\n${report.followUps.map((question, at) => `${at + 1}. ${question}`).join('\n')}`,
    );
  if (report.skipped?.length) parts.push(`## ${labels.notRead}\n\n${skippedMarkdown(report.skipped)}`);
  if (report.references.length > 0) parts.push(report.references.map(footnote).join('\n'));
  return `${parts.filter(Boolean).join('\n\n')}\n`;
}

function contradictionMarkdown(contradiction: Contradiction, trustLabel: string): string {
  const sides = contradiction.sides.map((side) => {
    const trust = side.trust === undefined ? '' : `, ${trustLabel} ${side.trust.toFixed(2)}`;
    return `  - ${side.claim}: "${oneLine(side.quote)}" ([${hostOf(side.url)}](${side.url})${trust})`;
  });
  return `- **${contradiction.topic}**\n${sides.join('\n')}`;
}

/** One line saying how many and why, then each page with its reason. */
function skippedMarkdown(skipped: readonly SkippedPage[]): string {
  const pages = skipped.map(
    (page) => `- <${page.url}>: ${skipReasonPhrase(page.reason)} (${oneLine(page.detail)})`,
  );
  return `${describeSkipped(skipped)}.\n\n${pages.join('\n')}`;
}

function footnote(reference: Reference): string {
  const alsoAt = describeAlsoAt(reference.alsoAt);
  return `[^${reference.index}]: "${oneLine(reference.quote)}" [${reference.title}](${reference.url})${alsoAt ? ` (${alsoAt})` : ''}`;
}

function oneLine(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}
