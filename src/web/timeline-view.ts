import type { RunEvent } from './api-client.js';
import { byId, h } from './dom.js';
import { safeHref } from './footnotes.js';
import type { OutlineView } from './outline-view.js';
import { type TimelineContext, type TimelineEntry, timelineEntry } from './timeline-entry.js';

/**
 * The lines of a run's events: a research section's go under it in the outline, the rest into
 * the run's own timeline. An event with the key of a line already shown updates that line.
 */
export function createTimelineView(outline: OutlineView) {
  const timeline = byId('timeline');
  const timelineBox = byId('timeline-box');
  const timelineCount = byId('timeline-count');
  let lines = new Map<string, { item: HTMLLIElement; entry: TimelineEntry }>();
  // Per run id (a research run's sections step at once): the note of a step still waiting for its model.
  const waiting = new Map<string, HTMLElement>();

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

  function addEntry(entry: TimelineEntry, section: string | undefined) {
    const existing = lines.get(entry.key);
    const merged =
      existing && entry.appendDetail
        ? { ...existing.entry, detail: (existing.entry.detail ?? '') + (entry.detail ?? '') }
        : entry;
    const item = renderEntry(merged);
    const list = (section && outline.stepsOf(section)) || timeline;
    // The list follows new lines while its end is in view, not while a person reads further up;
    // a folded list (a section's steps) opens at its start.
    const following =
      !list.closest('details:not([open])') && list.scrollHeight - list.scrollTop - list.clientHeight < 32;
    if (existing) existing.item.replaceWith(item);
    else list.append(item);
    if (list === timeline) timelineBox.hidden = false;
    lines.set(entry.key, { item, entry: merged });
    if (list !== timeline && section) outline.countSteps(section);
    else
      timelineCount.textContent = `(${timeline.querySelectorAll(':scope > li[data-kind]:not([data-kind="step"])').length})`;
    if (following) list.scrollTop = list.scrollHeight;
  }

  /**
   * A live step shows "waiting for the model…" from its start until anything else of its run
   * arrives (thinking, the action, a retry, the next step): the model's reply is what it waits for.
   */
  function trackWaiting(event: RunEvent, entry: TimelineEntry | null, live: boolean) {
    const run = String(event.runId ?? '');
    waiting.get(run)?.remove();
    waiting.delete(run);
    if (event.type !== 'step-start' || !entry || !live) return;
    const note = h('span', { class: 'waiting' }, 'waiting for the model…');
    lines.get(entry.key)?.item.append(note);
    waiting.set(run, note);
  }

  return {
    reset() {
      lines = new Map();
      waiting.clear();
      timeline.replaceChildren();
      timelineBox.hidden = false;
      timelineCount.textContent = '';
    },
    /** Shows the event's line, if it has one, where it belongs (`section`: a research section's). */
    apply(
      event: RunEvent,
      options: { section: string | undefined; live: boolean; context: TimelineContext },
    ) {
      const entry = timelineEntry(event, options.context);
      if (entry) addEntry(entry, options.section);
      trackWaiting(event, entry, options.live);
    },
    stopWaiting() {
      for (const note of waiting.values()) note.remove();
      waiting.clear();
    },
    /**
     * The run ended: a timeline with no line but a step's header (the model failed at its first
     * call) says nothing the error below it does not, so it goes; a resumed run's lines bring it back.
     */
    settle() {
      timelineBox.hidden = !timeline.querySelector(':scope > li:not([data-kind="step"])');
    },
  };
}
