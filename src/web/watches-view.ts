import type { WatchDetailObject, WatchObject, WatchRunObject } from '../events/watch-api.js';
import type { ApiClient } from './api-client.js';
import { byId, h } from './dom.js';
import { hostOf, toSourceRefs } from './footnotes.js';
import { renderMarkdown } from './render-markdown.js';
import { changeItem, markChangedBlocks } from './watch-changes.js';

export interface WatchesView {
  /** Shows the list (no id) or one watch. */
  show(id: string | undefined): Promise<void>;
  hide(): void;
}

/** How long "Run now" waits for the check to show up before it leaves the page to a reload. */
const checkWaitMs = 15 * 60_000;

/**
 * The Watches view: the list with a form to add one, and a watch's page: its latest answer with
 * the claims that are new or changed highlighted, every change with its sources before and after,
 * its history of checks, and run now / pause / remove.
 */
export function createWatchesView(options: {
  api: ApiClient;
  onError: (error: unknown) => void;
}): WatchesView {
  const { api, onError } = options;
  const listSection = byId('watches');
  const watchSection = byId('watch');
  const form = byId<HTMLFormElement>('watch-form');
  const formError = byId('watch-error');
  const status = byId('watch-status');
  let shownId: string | undefined;
  let shown: WatchDetailObject | undefined;
  let waiting: AbortController | undefined;

  async function showList() {
    watchSection.hidden = true;
    listSection.hidden = false;
    const { data } = await api.listWatches();
    const list = byId('watch-list');
    list.replaceChildren(...data.map(watchLine));
    byId('watch-empty').hidden = data.length > 0;
  }

  async function showWatch(id: string) {
    listSection.hidden = true;
    watchSection.hidden = false;
    const detail = await api.getWatch(id);
    if (shownId !== id) return;
    shown = detail;
    byId('watch-title').textContent = detail.name || detail.question;
    byId('watch-question').textContent =
      detail.name && detail.name !== detail.question ? detail.question : '';
    byId('watch-meta').textContent = scheduleLine(detail);
    byId('watch-pause').textContent = detail.paused ? 'Resume' : 'Pause';
    const runs = [...detail.runs].sort((a, b) => b.started_at - a.started_at);
    const latest = runs.find((run) => run.status === 'ok');
    const lastCheck = runs[0];
    byId('watch-summary').textContent = !lastCheck
      ? 'Not checked yet.'
      : lastCheck.status === 'failed'
        ? `The last check failed (${lastCheck.error ?? 'no reason given'}); the answer below is from the one before.`
        : runs.filter((run) => run.status === 'ok').length === 1
          ? 'First check: this answer is what later checks are compared with.'
          : `Since the previous check: ${lastCheck.summary}.`;
    await showLatestAnswer(id, latest);
    const changes = latest?.changes ?? [];
    byId('watch-changes').replaceChildren(...changes.map(changeItem));
    byId('watch-changes-box').hidden = changes.length === 0;
    byId('watch-history').replaceChildren(...runs.map(historyItem));
  }

  async function showLatestAnswer(id: string, latest: WatchRunObject | undefined) {
    const body = byId('watch-answer');
    body.replaceChildren();
    if (!latest?.run_id) return;
    try {
      const run = await api.getRun(latest.run_id);
      if (shownId !== id) return;
      const result = run.result ?? {};
      const markdown =
        typeof result.answer === 'string'
          ? result.answer
          : typeof result.markdown === 'string'
            ? result.markdown
            : '';
      body.append(renderMarkdown(markdown, toSourceRefs(result.references)));
      markChangedBlocks(body, latest.changes);
    } catch {
      // The run was pruned from the run store: the changes below still say what changed.
      body.append(h('p', { class: 'muted' }, 'The run behind this check is no longer kept.'));
    }
  }

  function watchLine(watch: WatchObject): HTMLElement {
    return h(
      'li',
      { class: 'watch-line' },
      h('a', { href: `#/watches/${encodeURIComponent(watch.id)}` }, watch.name || watch.question),
      h('span', { class: 'muted small' }, ` ${scheduleLine(watch)}`),
    );
  }

  function historyItem(run: WatchRunObject): HTMLElement {
    const when = new Date(run.started_at).toLocaleString();
    return h(
      'li',
      { class: `watch-check check-${run.status}` },
      h(
        'span',
        { class: `badge ${run.status === 'ok' ? 'ok' : 'failed'}` },
        run.status === 'ok' ? 'checked' : 'failed',
      ),
      ` ${when} — ${run.status === 'ok' ? run.summary : (run.error ?? 'failed')} `,
      run.run_id
        ? h('a', { href: `#/runs/${encodeURIComponent(run.run_id)}`, class: 'small' }, 'open run')
        : null,
      run.changes.length > 0
        ? h(
            'details',
            {},
            h(
              'summary',
              { class: 'small' },
              `${run.changes.length} change${run.changes.length === 1 ? '' : 's'}`,
            ),
            h('ol', { class: 'watch-changes' }, ...run.changes.map(changeItem)),
          )
        : null,
    );
  }

  /** After "Run now": looks again every few seconds until the new check is stored. */
  async function awaitCheck(id: string, before: number) {
    waiting?.abort();
    const controller = new AbortController();
    waiting = controller;
    const until = Date.now() + checkWaitMs;
    while (!controller.signal.aborted && Date.now() < until && shownId === id) {
      await new Promise((resolve) => setTimeout(resolve, 2000));
      const detail = await api.getWatch(id).catch(() => undefined);
      if (detail && detail.runs.length > before) {
        status.textContent = '';
        await showWatch(id);
        return;
      }
    }
  }

  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    formError.hidden = true;
    const value = (name: string) => (byId<HTMLInputElement>(name).value ?? '').trim();
    const question = value('watch-new-question');
    if (!question) {
      formError.hidden = false;
      formError.textContent = 'Type the question to watch first.';
      return;
    }
    const schedule = value('watch-every');
    const notify = value('watch-notify');
    try {
      const watch = await api.createWatch({
        question,
        mode: byId<HTMLSelectElement>('watch-mode').value,
        ...(/\s/.test(schedule) ? { cron: schedule } : { every: schedule || '1d' }),
        ...(notify ? { notify: { url: notify } } : {}),
      });
      form.reset();
      window.location.hash = `#/watches/${encodeURIComponent(watch.id)}`;
    } catch (error) {
      formError.hidden = false;
      formError.textContent = error instanceof Error ? error.message : String(error);
    }
  });

  byId('watch-run').addEventListener('click', async () => {
    const id = shownId;
    if (!id || !shown) return;
    try {
      await api.runWatch(id);
      status.textContent = 'Checking now… the changes show here when the run is done.';
      void awaitCheck(id, shown.runs.length);
    } catch (error) {
      status.textContent = error instanceof Error ? error.message : String(error);
    }
  });

  byId('watch-pause').addEventListener('click', async () => {
    if (!shownId || !shown) return;
    try {
      await api.updateWatch(shownId, { paused: !shown.paused });
      await showWatch(shownId);
    } catch (error) {
      onError(error);
    }
  });

  byId('watch-remove').addEventListener('click', async () => {
    if (!shownId || !window.confirm('Remove this watch? Its runs stay in the history.')) return;
    try {
      await api.deleteWatch(shownId);
      window.location.hash = '#/watches';
    } catch (error) {
      onError(error);
    }
  });

  return {
    async show(id) {
      shownId = id;
      waiting?.abort();
      status.textContent = '';
      try {
        if (id) await showWatch(id);
        else await showList();
      } catch (error) {
        onError(error);
      }
    },
    hide() {
      shownId = undefined;
      waiting?.abort();
      listSection.hidden = true;
      watchSection.hidden = true;
    },
  };
}

function scheduleLine(watch: WatchObject): string {
  const every = watch.every ? `every ${watch.every}` : `cron ${watch.cron ?? '?'}`;
  const next = watch.paused
    ? 'paused'
    : watch.next_run_at
      ? `next check ${new Date(watch.next_run_at).toLocaleString()}`
      : '';
  const notify = watch.notify ? ` · notifies ${hostOf(watch.notify.url)}` : '';
  return (
    [every, watch.mode === 'research' ? 'research report' : 'answer', next].filter(Boolean).join(' · ') +
    notify
  );
}
