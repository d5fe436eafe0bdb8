import type { ApiClient } from './api-client.js';
import { byId, h } from './dom.js';
import type { SourceRef } from './footnotes.js';
import type { RunView } from './run-view.js';

/**
 * What a run read of its sources: once a run has completed, when each footnote's source was read
 * (its popover then offers "as read on <date>"), the snapshot itself in a dialog with the quote
 * highlighted, and the sources as a citation file (BibTeX, RIS, CSL-JSON).
 */
export function wireSourceSnapshots(options: { api: ApiClient; view: RunView }) {
  const { api, view } = options;
  const dialog = byId<HTMLDialogElement>('snapshot');
  const title = byId('snapshot-title');
  const meta = byId('snapshot-meta');
  const text = byId('snapshot-text');
  const cite = byId('cite-actions');
  const status = byId('copy-status');

  for (const button of cite.querySelectorAll<HTMLButtonElement>('button[data-format]')) {
    button.addEventListener('click', async () => {
      const id = view.shown?.detail.id;
      if (!id) return;
      try {
        const { blob, fileName } = await api.downloadCitations(id, button.dataset.format ?? 'bibtex');
        const url = URL.createObjectURL(blob);
        Object.assign(document.createElement('a'), { href: url, download: fileName }).click();
        setTimeout(() => URL.revokeObjectURL(url), 1000);
      } catch (error) {
        status.textContent = `Export failed: ${(error as Error).message}`;
      }
    });
  }

  return {
    /** After a run is shown finished: its read dates, if it kept snapshots (an older run has none). */
    async load() {
      const shown = view.shown;
      cite.hidden = true;
      if (shown?.detail.status !== 'completed' || shown.references.length === 0) return;
      const id = shown.detail.id;
      const evidence = await api.getEvidence(id).catch(() => undefined);
      if (!evidence || view.shown?.detail.id !== id) return;
      for (const claim of evidence.claims) {
        const reference = shown.references.find((item) => item.index === claim.footnote);
        if (reference && claim.accessed_at) reference.readAt = claim.accessed_at;
      }
      cite.hidden = false;
    },
    async open(reference: SourceRef) {
      const id = view.shown?.detail.id;
      if (!id) return;
      title.textContent = reference.title;
      meta.textContent = 'Loading…';
      text.replaceChildren();
      dialog.showModal();
      try {
        const source = await api.getSource(id, reference.index);
        meta.textContent = `${source.url} — as read on ${source.accessed_at.replace('T', ' ').slice(0, 16)} UTC${source.status ? ` (HTTP ${source.status})` : ''}`;
        const { quote_start: start, quote_end: end } = source;
        if (start === null || end === null) text.replaceChildren(source.text);
        else
          text.replaceChildren(
            source.text.slice(0, start),
            h('mark', {}, source.text.slice(start, end)),
            source.text.slice(end),
          );
        text.querySelector('mark')?.scrollIntoView({ block: 'center' });
      } catch (error) {
        meta.textContent = (error as Error).message;
      }
    },
  };
}
