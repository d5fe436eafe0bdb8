import { downloadName } from '../research/download-name.js';
import type { SourceRef } from './footnotes.js';

/**
 * The answer as one Markdown document: the question, the text, then footnotes with their quotes.
 * A research report brings its own title and footnote definitions: neither is written twice.
 */
export function runToMarkdown(run: {
  question: string;
  markdown: string;
  references: readonly SourceRef[];
}): string {
  const text = run.markdown.trim();
  const title = /^# /.test(text) ? [] : [`# ${run.question.replace(/\s+/g, ' ').trim()}`, ''];
  const lines = [...title, text, ''];
  for (const reference of run.references) {
    if (text.includes(`[^${reference.index}]:`)) continue;
    const quote = reference.quote.replace(/\s+/g, ' ').trim();
    lines.push(
      `[^${reference.index}]: [${reference.title.replace(/[[\]]/g, '')}](${reference.url})${quote ? ` — "${quote}"` : ''}`,
    );
  }
  return `${lines.join('\n').trim()}\n`;
}

/**
 * A file name from the question: "What is X?" → "what-is-x.md"; for a research report (`markdown`
 * starting with its `# title`), from its title, as the server names its HTML and PDF: the four
 * exports of a report whose title was edited in the outline review have one name.
 */
export function exportFileName(question: string, extension: string, markdown?: string): string {
  const title = markdown ? /^# (.+)$/.exec(markdown.trimStart().split('\n', 1)[0] ?? '')?.[1] : undefined;
  return downloadName(title ?? question, extension, 'deepsearch-run');
}
