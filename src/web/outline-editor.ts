import type { ResearchOutline } from './api-client.js';
import { byId, formatTokens, h } from './dom.js';

interface SectionRow {
  id: string;
  item: HTMLLIElement;
  heading: HTMLInputElement;
  questions: HTMLTextAreaElement;
  facts: HTMLTextAreaElement;
}

const lines = (text: string) =>
  text
    .split('\n')
    .map((line) => line.replace(/^\s*[-*]\s+/, '').trim())
    .filter(Boolean);

/**
 * The research plan before any search, as a form: the title, each section's heading, questions
 * and the facts it needs (its data points), one per line; sections added, removed, moved up.
 * Start hands back the plan object POST /v1/research takes as `outline` (the server checks it
 * again and names what to fix).
 */
export function createOutlineEditor(options: {
  onStart: (question: string, outline: Record<string, unknown>) => Promise<void>;
  onDiscard: () => void;
}) {
  const root = byId('outline-editor');
  const title = byId<HTMLInputElement>('outline-title');
  const list = byId('outline-sections');
  const estimate = byId('outline-estimate');
  const error = byId('outline-error');
  const start = byId<HTMLButtonElement>('outline-start');
  let rows: SectionRow[] = [];
  let opened: ResearchOutline | undefined;
  let added = 0;

  function renumber() {
    rows.forEach((row, at) => {
      const name = `Section ${at + 1}`;
      row.item.querySelector('.section-number')!.textContent = name;
      row.heading.setAttribute('aria-label', `${name} heading`);
      row.questions.setAttribute('aria-label', `${name} questions, one per line`);
      row.facts.setAttribute('aria-label', `${name} facts the report needs, one per line`);
      row.item.querySelector<HTMLButtonElement>('.move-up')!.disabled = at === 0;
    });
    list.replaceChildren(...rows.map((row) => row.item));
  }

  function addRow(
    section: { id: string; heading: string; questions: string[] },
    facts: string[],
  ): SectionRow {
    const heading = h('input', { autocomplete: 'off' });
    heading.value = section.heading;
    const questions = h('textarea', { rows: String(Math.max(2, section.questions.length)) });
    questions.value = section.questions.join('\n');
    const factsBox = h('textarea', { rows: String(Math.max(1, facts.length)) });
    factsBox.value = facts.join('\n');
    for (const box of [questions, factsBox]) box.addEventListener('input', () => fitHeight(box));
    const up = h('button', { type: 'button', class: 'link-button move-up' }, 'Move up');
    const remove = h('button', { type: 'button', class: 'link-button' }, 'Remove');
    const item = h(
      'li',
      { class: 'outline-edit-section' },
      h('div', { class: 'section-edit-head' }, h('span', { class: 'section-number' }), up, remove),
      h('label', {}, h('span', { class: 'field-name' }, 'Heading'), heading),
      h('label', {}, h('span', { class: 'field-name' }, 'Questions, one per line'), questions),
      h(
        'label',
        {},
        h('span', { class: 'field-name' }, 'Facts the report needs, one per line (optional)'),
        factsBox,
      ),
    );
    const row: SectionRow = { id: section.id, item, heading, questions, facts: factsBox };
    up.addEventListener('click', () => {
      const at = rows.indexOf(row);
      if (at > 0) rows.splice(at - 1, 2, row, rows[at - 1]!);
      renumber();
      up.focus();
    });
    remove.addEventListener('click', () => {
      rows = rows.filter((other) => other !== row);
      renumber();
      byId('outline-add').focus();
    });
    return row;
  }

  /** The edited plan, or the first thing to fix (the field is focused). */
  function collect(): Record<string, unknown> | undefined {
    const fail = (message: string, field: HTMLElement) => {
      error.hidden = false;
      error.textContent = message;
      field.focus();
      return undefined;
    };
    if (!title.value.trim()) return fail('The report needs a title.', title);
    if (rows.length === 0) return fail('Add at least one section.', byId('outline-add'));
    for (const [at, row] of rows.entries()) {
      if (!row.heading.value.trim()) return fail(`Section ${at + 1} needs a heading.`, row.heading);
      if (lines(row.questions.value).length === 0)
        return fail(`Section ${at + 1} needs at least one question.`, row.questions);
    }
    const strategies = new Map(opened!.plan.dataPoints.map((point) => [point.description, point.strategy]));
    return {
      ...opened!.plan,
      title: title.value.trim(),
      sections: rows.map((row) => ({
        id: row.id,
        heading: row.heading.value.trim(),
        questions: lines(row.questions.value),
      })),
      // A fact kept as it was keeps how it is to be found; a new or reworded one is searched for.
      dataPoints: rows.flatMap((row) =>
        lines(row.facts.value).map((description) => ({
          description,
          strategy: strategies.get(description) ?? 'web-search',
          sectionId: row.id,
        })),
      ),
    };
  }

  // A narrower window wraps the questions onto more lines: the boxes grow with them.
  window.addEventListener('resize', () => {
    if (!root.hidden) for (const row of rows) for (const box of [row.questions, row.facts]) fitHeight(box);
  });

  byId('outline-add').addEventListener('click', () => {
    const row = addRow({ id: `new-${++added}`, heading: '', questions: [] }, []);
    rows.push(row);
    renumber();
    row.heading.focus();
  });
  byId('outline-discard').addEventListener('click', () => options.onDiscard());
  start.addEventListener('click', async () => {
    error.hidden = true;
    const outline = collect();
    if (!outline || !opened) return;
    start.disabled = true;
    try {
      await options.onStart(opened.question, outline);
    } catch (failure) {
      error.hidden = false;
      error.textContent = (failure as Error).message;
    } finally {
      start.disabled = false;
    }
  });

  return {
    get isOpen() {
      return !root.hidden;
    },
    open(outline: ResearchOutline) {
      opened = outline;
      added = 0;
      title.value = outline.plan.title;
      const { tokens, timeMs, llmCalls } = outline.estimate;
      estimate.textContent = `Estimated: ~${formatTokens(tokens)} tokens, ~${Math.max(1, Math.round(timeMs / 60_000))} min, ~${llmCalls} LLM calls.`;
      rows = outline.plan.sections.map((section) =>
        addRow(
          section,
          outline.plan.dataPoints
            .filter((point) => point.sectionId === section.id)
            .map((point) => point.description),
        ),
      );
      renumber();
      error.hidden = true;
      root.hidden = false;
      // Sized once shown (a hidden box has no height to measure).
      for (const row of rows) for (const box of [row.questions, row.facts]) fitHeight(box);
      byId('outline-editor-title').focus();
    },
    close() {
      root.hidden = true;
      opened = undefined;
      rows = [];
      list.replaceChildren();
    },
  };
}

/**
 * A box as tall as its text: one row per question was too few once a long question wrapped, and
 * the third question was cut off below the box's edge.
 */
function fitHeight(box: HTMLTextAreaElement): void {
  box.style.height = 'auto';
  const border = box.offsetHeight - box.clientHeight;
  box.style.height = `${box.scrollHeight + border}px`;
}
