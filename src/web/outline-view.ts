import type { RunEvent } from './api-client.js';
import { byId, h } from './dom.js';
import { hostOf, safeHref } from './footnotes.js';

/** Where a section is: its state word and the counts behind it. */
interface SectionState {
  phase: 'queued' | 'searching' | 'gathered' | 'written' | 'stopped';
  hop: number;
  covered?: number;
  total?: number;
  sources?: number;
}

interface ShownSection {
  id: string;
  heading: string;
  item: HTMLLIElement;
  state: SectionState;
  badge: HTMLElement;
  steps: HTMLOListElement;
  stepsCount: HTMLElement;
  stepsFold: HTMLDetailsElement;
  evidence: HTMLDetailsElement;
}

const str = (value: unknown): string => (typeof value === 'string' ? value : '');
const num = (value: unknown): number | undefined => (typeof value === 'number' ? value : undefined);

/**
 * A research run's plan as an outline: each section with its live state (queued, searching hop
 * n, covered k of m, written), its own steps folded under it (its deep searches carry their own
 * run ids; their run-start names the section), and the quotes that cover its questions.
 */
export function createOutlineView() {
  const root = byId('outline');
  const list = byId('outline-list');
  let sections = new Map<string, ShownSection>();
  let partSection = new Map<string, string>();

  function stateText(state: SectionState): string {
    const coverage = state.total !== undefined ? `covered ${state.covered ?? 0} of ${state.total}` : '';
    const sources =
      state.sources !== undefined ? ` · ${state.sources} source${state.sources === 1 ? '' : 's'}` : '';
    switch (state.phase) {
      case 'queued':
        return 'queued';
      case 'searching':
        return coverage ? `${coverage} · searching hop ${state.hop}` : `searching hop ${state.hop}`;
      case 'gathered':
        return `${coverage}${sources}`;
      case 'written':
        return `written · ${coverage}${sources}`;
      case 'stopped':
        return coverage ? `stopped · ${coverage}` : 'stopped';
    }
  }

  function update(section: ShownSection, change: Partial<SectionState>) {
    section.state = { ...section.state, ...change };
    section.badge.textContent = stateText(section.state);
    section.item.dataset.state = section.state.phase;
  }

  function addSection(id: string, heading: string, questions: string[], facts: string[]): ShownSection {
    const badge = h('span', { class: 'section-state', role: 'status' });
    const stepsCount = h('span', { class: 'muted' });
    const steps = h('ol', { class: 'timeline section-timeline' });
    // Shown once the section's research has a line (a queued section has nothing to unfold).
    const stepsFold = h(
      'details',
      { class: 'section-steps', hidden: '' },
      h('summary', { class: 'fold' }, 'Steps ', stepsCount),
      steps,
    );
    // Shown once the librarian has judged a hop.
    const evidence = h('details', { class: 'section-evidence', id: `evidence-${id}`, hidden: '' });
    const item = h(
      'li',
      { class: 'outline-section', id: `outline-${id}`, 'data-section': id },
      h('div', { class: 'section-head' }, h('span', { class: 'section-heading' }, heading), badge),
      h(
        'ul',
        { class: 'section-questions muted small' },
        ...questions.map((question) => h('li', {}, question)),
        ...facts.map((fact) => h('li', { class: 'fact' }, `Fact needed: ${fact}`)),
      ),
      stepsFold,
      evidence,
    );
    const shown: ShownSection = {
      id,
      heading,
      item,
      state: { phase: 'queued', hop: 0 },
      badge,
      steps,
      stepsCount,
      stepsFold,
      evidence,
    };
    update(shown, {});
    return shown;
  }

  /** The covered items with their quotes and links, then what is still missing. */
  function showEvidence(section: ShownSection, event: RunEvent) {
    const covered = Array.isArray(event.covered) ? event.covered.map(str) : [];
    const missing = Array.isArray(event.missing) ? event.missing.map(str) : [];
    const quotes = (Array.isArray(event.evidence) ? event.evidence : []) as Array<Record<string, unknown>>;
    const items = covered.map((target) => {
      const backing = quotes.filter((quote) => str(quote.target) === target);
      return h(
        'li',
        { 'data-covered': 'true' },
        h('span', { class: 'evidence-target' }, target),
        ...backing.map((quote) => {
          const href = safeHref(str(quote.url));
          const link = href
            ? h('a', { href, target: '_blank', rel: 'noopener noreferrer' }, hostOf(str(quote.url)))
            : hostOf(str(quote.url));
          return h('blockquote', {}, h('q', {}, str(quote.quote)), ' ', link);
        }),
      );
    });
    const open = missing.map((target) =>
      h(
        'li',
        { 'data-covered': 'false' },
        h('span', { class: 'evidence-target' }, target),
        h('span', { class: 'muted' }, ' — not found yet'),
      ),
    );
    section.evidence.hidden = false;
    section.evidence.replaceChildren(
      h(
        'summary',
        { class: 'fold' },
        `Evidence: ${covered.length} of ${covered.length + missing.length} covered`,
      ),
      h('ul', { class: 'evidence-list' }, ...items, ...open),
    );
  }

  return {
    reset() {
      sections = new Map();
      partSection = new Map();
      list.replaceChildren();
      root.hidden = true;
    },
    /** The plan's sections, all queued (a resumed run's replay moves them on from there). */
    plan(event: RunEvent) {
      const plan = event.plan as {
        sections?: Array<{ id?: unknown; heading?: unknown; questions?: unknown }>;
        dataPoints?: Array<{ description?: unknown; sectionId?: unknown }>;
      };
      if (sections.size > 0 || !Array.isArray(plan?.sections)) return;
      const points = Array.isArray(plan.dataPoints) ? plan.dataPoints : [];
      for (const section of plan.sections) {
        const id = str(section.id);
        if (!id) continue;
        const questions = Array.isArray(section.questions) ? section.questions.map(str) : [];
        const facts = points.filter((point) => point.sectionId === id).map((point) => str(point.description));
        sections.set(id, addSection(id, str(section.heading) || id, questions, facts));
      }
      list.replaceChildren(...[...sections.values()].map((section) => section.item));
      root.hidden = sections.size === 0;
    },
    /** The section an event belongs to, if any: named in it, or the part its run id is. */
    sectionOf(event: RunEvent): string | undefined {
      const part = event.part as { section?: unknown } | undefined;
      if (event.type === 'run-start' && part && typeof event.runId === 'string')
        partSection.set(event.runId, str(part.section));
      const named = str(event.section) || partSection.get(str(event.runId));
      return named && sections.has(named) ? named : undefined;
    },
    /** The list a section's timeline entries go into (its steps, folded). */
    stepsOf(id: string): HTMLOListElement | undefined {
      return sections.get(id)?.steps;
    },
    /** Counts the section's own timeline lines in its folded summary. */
    countSteps(id: string) {
      const section = sections.get(id);
      if (!section) return;
      section.stepsFold.hidden = false;
      section.stepsCount.textContent = `(${section.steps.querySelectorAll(':scope > li:not([data-kind="step"])').length})`;
    },
    /** Moves a section's state on from research-hop, coverage and research-section events. */
    apply(event: RunEvent, id: string) {
      const section = sections.get(id);
      if (!section) return;
      if (event.type === 'research-hop')
        update(section, { phase: 'searching', hop: num(event.hop) ?? section.state.hop + 1 });
      else if (event.type === 'coverage') {
        const covered = Array.isArray(event.covered) ? event.covered.length : 0;
        const missing = Array.isArray(event.missing) ? event.missing.length : 0;
        update(section, { covered, total: covered + missing });
        showEvidence(section, event);
      } else if (event.type === 'research-section') {
        const phase = event.state === 'written' ? 'written' : 'gathered';
        update(section, {
          phase,
          ...(num(event.covered) !== undefined
            ? { covered: num(event.covered), total: num(event.total) }
            : {}),
          ...(num(event.sources) !== undefined ? { sources: num(event.sources) } : {}),
        });
      }
    },
    /** A run that ended without its report: sections still searching or queued stopped there. */
    finish(status: string) {
      if (status === 'completed') return;
      for (const section of sections.values())
        if (section.state.phase === 'searching' || section.state.phase === 'queued')
          update(section, { phase: 'stopped' });
    },
    /** A section by its heading (the report's "## Heading"). */
    idOf(heading: string): string | undefined {
      return [...sections.values()].find((section) => section.heading === heading.trim())?.id;
    },
    /** Opens a section's evidence and brings it into view (from the report's section link). */
    reveal(id: string) {
      const section = sections.get(id);
      if (!section) return;
      section.evidence.open = true;
      section.item.scrollIntoView({ block: 'start', behavior: 'smooth' });
      section.evidence.querySelector('summary')?.focus();
    },
  };
}

export type OutlineView = ReturnType<typeof createOutlineView>;
