import type { ApiClient, RunDetail } from './api-client.js';
import { byId } from './dom.js';
import { exportFileName, runToMarkdown } from './export-run.js';
import type { RunView } from './run-view.js';

/**
 * Copy and Export under the answer: Markdown and JSON of what the page shows; a report also as
 * the server renders it, one self-contained HTML page or (where the server has Chromium) a PDF.
 */
export function wireAnswerActions(view: RunView, options: { api: ApiClient }) {
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
  function download(name: string, content: Blob) {
    const url = URL.createObjectURL(content);
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
      download(
        exportFileName(view.shown.detail.question, 'md', view.shown.markdown),
        new Blob([markdown], { type: 'text/markdown' }),
      );
  });
  byId('export-json').addEventListener('click', () => {
    const shown = view.shown;
    if (!shown) return;
    const run: RunDetail & { events: unknown[] } = { ...shown.detail, events: shown.events };
    download(
      exportFileName(shown.detail.question, 'json', shown.markdown),
      new Blob([`${JSON.stringify(run, null, 2)}\n`], { type: 'application/json' }),
    );
  });
  for (const format of ['html', 'pdf']) {
    const button = byId<HTMLButtonElement>(`export-${format}`);
    button.addEventListener('click', async () => {
      const id = view.shown?.detail.id;
      if (!id) return;
      button.disabled = true;
      copyStatus.textContent = format === 'pdf' ? 'Printing the PDF…' : '';
      try {
        const { blob, fileName } = await options.api.downloadReport(id, format);
        download(fileName, blob);
        copyStatus.textContent = '';
      } catch (error) {
        copyStatus.textContent = `Export failed: ${(error as Error).message}`;
      } finally {
        button.disabled = false;
      }
    });
  }
}
