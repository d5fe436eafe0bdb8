import type { RunDetail } from './api-client.js';
import { byId } from './dom.js';
import { exportFileName, runToMarkdown } from './export-run.js';
import type { RunView } from './run-view.js';

/** Copy, Export Markdown and Export JSON under the answer: what the open run shows, as files. */
export function wireAnswerActions(view: RunView) {
  const copyStatus = byId('copy-status');
  function shownMarkdown(): string | undefined {
    const shown = view.shown;
    if (!shown?.markdown) return undefined;
    return runToMarkdown({
      question: shown.detail.question,
      markdown: shown.markdown,
      references: shown.references,
    });
  }
  function download(name: string, type: string, content: string) {
    const url = URL.createObjectURL(new Blob([content], { type }));
    const link = Object.assign(document.createElement('a'), { href: url, download: name });
    link.click();
    setTimeout(() => URL.revokeObjectURL(url), 1000);
  }
  byId('copy-answer').addEventListener('click', async () => {
    const markdown = shownMarkdown();
    if (!markdown) return;
    try {
      await navigator.clipboard.writeText(markdown);
      copyStatus.textContent = 'Copied.';
    } catch {
      copyStatus.textContent = 'The browser did not allow copying; use Export instead.';
    }
  });
  byId('export-md').addEventListener('click', () => {
    const markdown = shownMarkdown();
    if (markdown && view.shown)
      download(exportFileName(view.shown.detail.question, 'md'), 'text/markdown', markdown);
  });
  byId('export-json').addEventListener('click', () => {
    const shown = view.shown;
    if (!shown) return;
    const run: RunDetail & { events: unknown[] } = { ...shown.detail, events: shown.events };
    download(
      exportFileName(shown.detail.question, 'json'),
      'application/json',
      `${JSON.stringify(run, null, 2)}\n`,
    );
  });
}
