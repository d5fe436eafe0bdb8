import type { RunStatus } from '../events/run-api.js';
import type { RunDetail, RunEvent } from './api-client.js';
import { byId, formatElapsed, h } from './dom.js';
import { alsoAtText, hostOf, type SourceRef, safeHref, toSourceRefs } from './footnotes.js';
import { createGaugeView } from './gauge-view.js';
import { createOutlineView } from './outline-view.js';
import { renderMarkdown } from './render-markdown.js';
import { linkReport } from './report-links.js';
import { type SkippedEntry, skippedItem, toSkippedEntries } from './skipped-pages.js';
import { createTimelineView } from './timeline-view.js';

const finished = new Set(['completed', 'failed', 'cancelled']);

/** What the page shows of the open run; export and copy read it. */
export interface ShownRun {
  detail: RunDetail;
  markdown: string;
  references: SourceRef[];
  events: RunEvent[];
}

export interface RunViewOptions {
  /** A follow-up question of a report was clicked: start it. */
  onFollowUp: (question: string, mode?: 'research') => void;
}

/**
 * The open run: head (question, status, elapsed, gauge, cancel), a research run's outline with
 * each section's state and steps, the timeline of the rest, the draft while the model writes,
 * then the rendered answer or report and its sources.
 */
export function createRunView(options: RunViewOptions) {
  const section = byId('run');
  const question = byId('run-question');
  const status = byId('run-status');
  const elapsed = byId('run-elapsed');
  const cancel = byId<HTMLButtonElement>('run-cancel');
  const remove = byId<HTMLButtonElement>('run-delete');
  const resumeBox = byId('run-resume-box');
  const resumeEffort = byId<HTMLSelectElement>('resume-effort');
  const gauge = createGaugeView();
  const outline = createOutlineView();
  const timeline = createTimelineView(outline);
  const runError = byId('run-error');
  const answer = byId('answer');
  const draft = byId('draft');
  const answerBody = byId('answer-body');
  const confidence = byId('answer-confidence');
  const actions = byId('answer-actions');
  const exportHtml = byId('export-html');
  const exportPdf = byId('export-pdf');
  const retry = byId<HTMLButtonElement>('run-retry');
  const sources = byId('sources');
  const sourceList = byId('source-list');
  const notRead = byId('not-read');
  const notReadList = byId('not-read-list');

  let shown: ShownRun | undefined;
  let startedAt = 0;
  let endedAt: number | undefined;
  let finalText = '';
  let followUps: string[] = [];
  let sectionHeadings = new Map<string, string>();
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
    else timeline.stopWaiting();
  }

  /** Resume is offered when the server says it would take the run (a checkpoint, nothing left running). */
  function offerResume(detail: RunDetail) {
    resumeBox.hidden = !(finished.has(detail.status) && detail.resumable === true);
    // A run that stopped on its budget needs a larger one to get further.
    resumeEffort.value = detail.status === 'completed' ? 'high' : '';
  }

  /** Pages the run could not read, under the sources: a bot check, a paywall stub, a timeout... */
  function showSkipped(skipped: SkippedEntry[]) {
    notRead.hidden = skipped.length === 0;
    notReadList.replaceChildren(...skipped.map(skippedItem));
  }

  function showAnswer(markdown: string, references: SourceRef[], note?: string) {
    if (!shown) return;
    shown.markdown = markdown;
    shown.references = references;
    answer.hidden = false;
    draft.hidden = true;
    actions.hidden = markdown.trim() === '';
    answerBody.replaceChildren(renderMarkdown(markdown, references));
    // A report's sections lead to their evidence; its follow-up questions start runs.
    if (shown.detail.mode === 'research')
      linkReport(answerBody, {
        followUps,
        sectionOf: (heading) => outline.idOf(heading),
        onEvidence: (id) => outline.reveal(id),
        onFollowUp: options.onFollowUp,
      });
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
          reference.alsoAt?.length
            ? h(
                'small',
                { class: 'source-also', title: reference.alsoAt.join('\n') },
                alsoAtText(reference.alsoAt),
              )
            : null,
        );
      }),
    );
  }

  function showDraft(text: string) {
    answer.hidden = false;
    // Copy and Export stay away until there is an answer to copy.
    if (!shown?.markdown) actions.hidden = true;
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
      timeline.reset();
      finalText = '';
      followUps = [];
      sectionHeadings = new Map();
      outline.reset();
      startedAt = detail.created_at * 1000;
      endedAt = detail.finished_at ? detail.finished_at * 1000 : undefined;
      section.hidden = false;
      question.textContent = detail.question;
      setStatus(detail.status);
      gauge.reset();
      exportHtml.hidden = true;
      exportPdf.hidden = true;
      runError.hidden = true;
      retry.hidden = true;
      answer.hidden = true;
      draft.hidden = true;
      draft.textContent = '';
      answerBody.replaceChildren();
      confidence.textContent = '';
      sources.hidden = true;
      sourceList.replaceChildren();
      showSkipped([]);
      offerResume(detail);
      updateElapsed();
    },
    /** The run goes on under the same id: the timeline stays, the rest waits for its new events. */
    resumed(status: RunStatus) {
      if (!shown) return;
      shown = { ...shown, detail: { ...shown.detail, status, resumable: false } };
      shown.markdown = '';
      shown.references = [];
      // Queued when every slot is taken; run-start makes it running.
      setStatus(status);
      // The clock goes on from where the run stopped: the time it sat idle before Resume is not its own.
      if (endedAt !== undefined) startedAt += Date.now() - endedAt;
      endedAt = undefined;
      finalText = '';
      runError.hidden = true;
      retry.hidden = true;
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
      if (event.type === 'research-plan') {
        rememberSections(event, sectionHeadings);
        outline.plan(event);
      }
      const section = outline.sectionOf(event);
      if (section) outline.apply(event, section);
      timeline.apply(event, {
        section,
        live: !finished.has(shown.detail.status),
        context: { sectionHeadings },
      });
      // A research section's steps count against its own share, not the run's whole budget.
      const own = event.runId === undefined || event.runId === shown.detail.id;
      gauge.apply(event, { own, research: shown.detail.mode === 'research' });
      if (event.type === 'answer-draft-delta') showDraft(draft.textContent + String(event.delta ?? ''));
      else if (event.type === 'answer-draft-reset') showDraft('');
      else if (event.type === 'answer-delta') {
        finalText += String(event.delta ?? '');
        showDraft(finalText);
      } else if (event.type === 'run-end' && shown.detail.mode !== 'research') {
        const result = event.result as Record<string, unknown> | undefined;
        if (result) {
          showAnswer(String(result.answer ?? ''), toSourceRefs(result.references), confidenceNote(result));
          showSkipped(toSkippedEntries(result.skipped));
        }
      } else if (event.type === 'research-end') {
        const report = event.report as Record<string, unknown> | undefined;
        if (report) {
          followUps = stringsOf(report.followUps);
          showAnswer(String(report.markdown ?? ''), toSourceRefs(report.references));
          showSkipped(toSkippedEntries(report.skipped));
        }
      }
    },
    finish(detail: RunDetail) {
      if (!shown) return;
      shown.detail = detail;
      setStatus(detail.status);
      endedAt = detail.finished_at ? detail.finished_at * 1000 : Date.now();
      // A finished run says how long it ran (a resumed one without the gaps between its attempts).
      const duration = runDuration(detail);
      if (duration !== undefined) startedAt = endedAt - duration;
      updateElapsed();
      gauge.finish(detail);
      outline.finish(detail.status);
      timeline.settle();
      // The report as the server renders it: only the formats it says it can make (PDF needs Chromium).
      const formats = new Set(detail.report_formats ?? []);
      exportHtml.hidden = !formats.has('html');
      exportPdf.hidden = !formats.has('pdf');
      offerResume(detail);
      // A research run's result is its report, bare or under `report`.
      const report = (detail.result?.report ?? detail.result) as Record<string, unknown> | undefined;
      if (report && typeof report.markdown === 'string') {
        followUps = stringsOf(report.followUps);
        showAnswer(report.markdown, toSourceRefs(report.references));
        showSkipped(toSkippedEntries(report.skipped));
      } else if (detail.result && typeof detail.result.answer === 'string') {
        showAnswer(
          detail.result.answer,
          toSourceRefs(detail.result.references),
          confidenceNote(detail.result),
        );
        showSkipped(toSkippedEntries(detail.result.skipped));
      }
      if (detail.status === 'failed' || detail.status === 'cancelled') {
        runError.hidden = false;
        // The API's messages start in lower case, as OpenAI's do; on the page it is a sentence.
        const message = detail.error?.message;
        runError.textContent = message
          ? `${message.charAt(0).toUpperCase()}${message.slice(1)}`
          : `The run was ${detail.status}.`;
        if (!detail.result) {
          draft.hidden = true;
          actions.hidden = true;
          answer.hidden = !shown.markdown;
        }
        // A failure with nothing to go on from: the same request again.
        retry.hidden = detail.status !== 'failed' || detail.resumable === true;
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

function stringsOf(value: unknown): string[] {
  return Array.isArray(value) ? value.filter((item): item is string => typeof item === 'string') : [];
}

function confidenceNote(result: Record<string, unknown>): string | undefined {
  if (typeof result.confidence !== 'string') return undefined;
  const reason = typeof result.confidenceReason === 'string' ? ` — ${result.confidenceReason}` : '';
  return `Confidence: ${result.confidence}${reason}`;
}

export type RunView = ReturnType<typeof createRunView>;

/** The run's own duration from its result (a research run's report, bare or under `report`). */
function runDuration(detail: RunDetail): number | undefined {
  const result = detail.result as Record<string, unknown> | undefined;
  const report = result?.report as Record<string, unknown> | undefined;
  const duration = report?.durationMs ?? result?.durationMs;
  return typeof duration === 'number' && Number.isFinite(duration) ? duration : undefined;
}
