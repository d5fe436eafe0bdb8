import type { RunDetail, RunEvent } from './api-client.js';
import { byId, formatElapsed, formatTokens, h } from './dom.js';
import { hostOf, type SourceRef, safeHref, toSourceRefs } from './footnotes.js';
import { renderMarkdown } from './render-markdown.js';
import { describeEvent, type TimelineEntry } from './timeline-entry.js';

const finished = new Set(['completed', 'failed', 'cancelled']);

/** What the page shows of the open run; export and copy read it. */
export interface ShownRun {
  detail: RunDetail;
  markdown: string;
  references: SourceRef[];
  events: RunEvent[];
}

/**
 * The open run: head (question, status, elapsed, gauge, cancel), the timeline built from its
 * events, the draft while the model writes, then the rendered answer or report and its sources.
 */
export function createRunView() {
  const section = byId('run');
  const question = byId('run-question');
  const status = byId('run-status');
  const elapsed = byId('run-elapsed');
  const cancel = byId<HTMLButtonElement>('run-cancel');
  const remove = byId<HTMLButtonElement>('run-delete');
  const resumeBox = byId('run-resume-box');
  const resumeEffort = byId<HTMLSelectElement>('resume-effort');
  const gauge = byId('gauge');
  const gaugeText = byId('gauge-text');
  const gaugeBar = byId('gauge-bar');
  const gaugeFill = byId('gauge-fill');
  const timeline = byId('timeline');
  const timelineCount = byId('timeline-count');
  const runError = byId('run-error');
  const answer = byId('answer');
  const draft = byId('draft');
  const answerBody = byId('answer-body');
  const confidence = byId('answer-confidence');
  const sources = byId('sources');
  const sourceList = byId('source-list');

  let shown: ShownRun | undefined;
  let lines = new Map<string, { item: HTMLLIElement; entry: TimelineEntry }>();
  let startedAt = 0;
  let endedAt: number | undefined;
  let finalText = '';
  let sectionHeadings = new Map<string, string>();
  // Per run id (a research run's sections step at once): the note of a step still waiting for its model.
  const waiting = new Map<string, HTMLElement>();
  const timer = setInterval(() => updateElapsed(), 1000);
  void timer;

  function updateElapsed() {
    if (!shown || !startedAt) return;
    elapsed.textContent = formatElapsed((endedAt ?? Date.now()) - startedAt);
  }

  function setStatus(value: string) {
    status.textContent = value;
    status.dataset.status = value;
    cancel.hidden = finished.has(value);
    remove.hidden = !finished.has(value);
    if (!finished.has(value)) resumeBox.hidden = true;
    else stopWaiting();
  }

  /**
   * A live step shows "waiting for the model…" from its start until anything else of its run
   * arrives (thinking, the action, a retry, the next step): the model's reply is what it waits for.
   */
  function trackWaiting(event: RunEvent, entry: TimelineEntry | null) {
    const run = String(event.runId ?? '');
    waiting.get(run)?.remove();
    waiting.delete(run);
    if (event.type !== 'step-start' || !entry || !shown || finished.has(shown.detail.status)) return;
    const note = h('span', { class: 'waiting' }, 'waiting for the model…');
    lines.get(entry.key)?.item.append(note);
    waiting.set(run, note);
  }

  function stopWaiting() {
    for (const note of waiting.values()) note.remove();
    waiting.clear();
  }

  /** Resume is offered when the server says it would take the run (a checkpoint, nothing left running). */
  function offerResume(detail: RunDetail) {
    resumeBox.hidden = !(finished.has(detail.status) && detail.resumable === true);
    // A run that stopped on its budget needs a larger one to get further.
    resumeEffort.value = detail.status === 'completed' ? 'high' : '';
  }

  function renderEntry(entry: TimelineEntry): HTMLLIElement {
    const item = h('li', { 'data-kind': entry.kind, 'data-tone': entry.tone });
    if (entry.kind !== 'step') item.append(h('span', { class: 'entry-kind' }, entry.kind));
    if (entry.detail && entry.kind !== 'step') {
      // Thinking, code and reasons stay collapsed: the line says what happened, the detail why.
      const open = lines.get(entry.key)?.item.querySelector('details')?.open ?? false;
      const details = h('details', {}, h('summary', {}, entry.title), h('pre', {}, entry.detail));
      details.open = open;
      item.append(details);
    } else item.append(entry.title);
    if (entry.items?.length) {
      const list = h('ul', { class: 'entry-items' });
      for (const row of entry.items) {
        const href = row.href ? safeHref(row.href) : undefined;
        const text = href
          ? h('a', { href, target: '_blank', rel: 'noopener noreferrer' }, row.text)
          : row.text;
        list.append(h('li', {}, text, row.note ? h('span', { class: 'note' }, row.note) : null));
      }
      item.append(list);
    }
    return item;
  }

  function addEntry(entry: TimelineEntry) {
    const existing = lines.get(entry.key);
    const merged =
      existing && entry.appendDetail
        ? { ...existing.entry, detail: (existing.entry.detail ?? '') + (entry.detail ?? '') }
        : entry;
    const item = renderEntry(merged);
    if (existing) existing.item.replaceWith(item);
    else timeline.append(item);
    lines.set(entry.key, { item, entry: merged });
    timelineCount.textContent = `(${timeline.querySelectorAll('li[data-kind]:not([data-kind="step"])').length})`;
    timeline.scrollTop = timeline.scrollHeight;
  }

  /** A finished run without step budgets of its own (research) shows the tokens it used. */
  function showUsage(detail: RunDetail) {
    if (!gauge.hidden || !detail.usage) return;
    gauge.hidden = false;
    gaugeText.textContent = `${formatTokens(detail.usage.total_tokens)} tokens used`;
    gaugeBar.hidden = true;
  }

  function updateGauge(event: RunEvent) {
    const budget = event.budget as
      | { tokensUsed?: number; maxTokens?: number; stepsUsed?: number; maxSteps?: number }
      | undefined;
    if (!budget || typeof budget.tokensUsed !== 'number') return;
    const max = budget.maxTokens ?? 0;
    const percent = max > 0 ? Math.min(100, Math.round((budget.tokensUsed / max) * 100)) : 0;
    gauge.hidden = false;
    gaugeBar.hidden = false;
    gaugeText.textContent =
      `${formatTokens(budget.tokensUsed)}${max ? ` of ${formatTokens(max)}` : ''} tokens` +
      (budget.maxSteps ? ` · step ${budget.stepsUsed ?? 0} of ${budget.maxSteps}` : '');
    gaugeFill.style.width = `${percent}%`;
    gaugeBar.setAttribute('aria-valuenow', String(percent));
  }

  function showAnswer(markdown: string, references: SourceRef[], note?: string) {
    if (!shown) return;
    shown.markdown = markdown;
    shown.references = references;
    answer.hidden = false;
    draft.hidden = true;
    answerBody.replaceChildren(renderMarkdown(markdown, references));
    confidence.textContent = note ?? '';
    sources.hidden = references.length === 0;
    sourceList.replaceChildren(
      ...references.map((reference) => {
        const href = safeHref(reference.url);
        return h(
          'li',
          { class: 'source-card', id: `source-${reference.index}` },
          h('span', { class: 'source-num' }, `[${reference.index}] ${hostOf(reference.url)}`),
          href
            ? h('a', { href, target: '_blank', rel: 'noopener noreferrer' }, reference.title)
            : h('span', {}, reference.title),
          reference.quote ? h('q', {}, reference.quote) : null,
        );
      }),
    );
  }

  function showDraft(text: string) {
    answer.hidden = false;
    draft.hidden = text === '';
    // Plain text only: a draft's quotes are not checked yet, and text can't carry markup.
    draft.textContent = text;
  }

  return {
    get shown() {
      return shown;
    },
    open(detail: RunDetail) {
      shown = { detail, markdown: '', references: [], events: [] };
      lines = new Map();
      waiting.clear();
      finalText = '';
      sectionHeadings = new Map();
      startedAt = detail.created_at * 1000;
      endedAt = detail.finished_at ? detail.finished_at * 1000 : undefined;
      section.hidden = false;
      question.textContent = detail.question;
      setStatus(detail.status);
      timeline.replaceChildren();
      timelineCount.textContent = '';
      gauge.hidden = true;
      runError.hidden = true;
      answer.hidden = true;
      draft.hidden = true;
      draft.textContent = '';
      answerBody.replaceChildren();
      confidence.textContent = '';
      sources.hidden = true;
      sourceList.replaceChildren();
      offerResume(detail);
      updateElapsed();
    },
    /** The run goes on under the same id: the timeline stays, the rest waits for its new events. */
    resumed(status: string) {
      if (!shown) return;
      shown = { ...shown, detail: { ...shown.detail, status, resumable: false } };
      shown.markdown = '';
      shown.references = [];
      // Queued when every slot is taken; run-start makes it running.
      setStatus(status);
      endedAt = undefined;
      finalText = '';
      runError.hidden = true;
      answer.hidden = true;
      draft.textContent = '';
      draft.hidden = true;
    },
    /** The seq of the last event shown: a resumed run's events come after it. */
    get lastSeq() {
      return shown?.events.at(-1)?.seq;
    },
    applyEvent(event: RunEvent) {
      if (!shown) return;
      shown.events.push(event);
      if (event.type === 'run-start' && !finished.has(shown.detail.status)) setStatus('running');
      if (event.type === 'research-plan') rememberSections(event, sectionHeadings);
      const entry = describeEvent(event, { sectionHeadings });
      if (entry) addEntry(entry);
      trackWaiting(event, entry);
      // A research section's steps count against its own share, not the run's whole budget.
      const ownStep = event.runId === undefined || event.runId === shown.detail.id;
      if (event.type === 'step-end' && ownStep) updateGauge(event);
      else if (event.type === 'answer-draft-delta') showDraft(draft.textContent + String(event.delta ?? ''));
      else if (event.type === 'answer-draft-reset') showDraft('');
      else if (event.type === 'answer-delta') {
        finalText += String(event.delta ?? '');
        showDraft(finalText);
      } else if (event.type === 'run-end' && shown.detail.mode !== 'research') {
        const result = event.result as Record<string, unknown> | undefined;
        if (result)
          showAnswer(String(result.answer ?? ''), toSourceRefs(result.references), confidenceNote(result));
      } else if (event.type === 'research-end') {
        const report = event.report as Record<string, unknown> | undefined;
        if (report) showAnswer(String(report.markdown ?? ''), toSourceRefs(report.references));
      }
    },
    finish(detail: RunDetail) {
      if (!shown) return;
      shown.detail = detail;
      setStatus(detail.status);
      endedAt = detail.finished_at ? detail.finished_at * 1000 : Date.now();
      updateElapsed();
      showUsage(detail);
      offerResume(detail);
      // A research run's result is its report, bare or under `report`.
      const report = (detail.result?.report ?? detail.result) as Record<string, unknown> | undefined;
      if (report && typeof report.markdown === 'string')
        showAnswer(report.markdown, toSourceRefs(report.references));
      else if (detail.result && typeof detail.result.answer === 'string')
        showAnswer(
          detail.result.answer,
          toSourceRefs(detail.result.references),
          confidenceNote(detail.result),
        );
      if (detail.status === 'failed' || detail.status === 'cancelled') {
        runError.hidden = false;
        runError.textContent = detail.error?.message ?? `The run was ${detail.status}.`;
        if (!detail.result) draft.hidden = true;
      }
    },
    setStatus,
    lookup(index: number) {
      return shown?.references.find((reference) => reference.index === index);
    },
  };
}

function rememberSections(event: RunEvent, headings: Map<string, string>) {
  const sections = (event.plan as { sections?: unknown } | undefined)?.sections;
  if (!Array.isArray(sections)) return;
  for (const section of sections as Array<{ id?: unknown; heading?: unknown }>) {
    if (typeof section.id === 'string' && typeof section.heading === 'string')
      headings.set(section.id, section.heading);
  }
}

function confidenceNote(result: Record<string, unknown>): string | undefined {
  if (typeof result.confidence !== 'string') return undefined;
  const reason = typeof result.confidenceReason === 'string' ? ` — ${result.confidenceReason}` : '';
  return `Confidence: ${result.confidence}${reason}`;
}

export type RunView = ReturnType<typeof createRunView>;
