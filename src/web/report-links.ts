import { h } from './dom.js';

export interface ReportLinks {
  /** The report's follow-up questions (its `followUps`), as the last list shows them. */
  followUps: readonly string[];
  /** The outline section a report heading belongs to, if the run's outline has one. */
  sectionOf: (heading: string) => string | undefined;
  /** Shows a section's evidence in the outline. */
  onEvidence: (sectionId: string) => void;
  /** Starts a new run for a follow-up question: as research, or (no mode) as the page's choice. */
  onFollowUp: (question: string, mode?: 'research') => void;
}

/**
 * Makes a rendered report lead somewhere: each section heading gets a link to the evidence its
 * section was written from, and each follow-up question buttons that start it as a question or
 * as research. Matching is by text, so the report's own wording (any language) needs no labels.
 */
export function linkReport(body: HTMLElement, links: ReportLinks): void {
  for (const heading of body.querySelectorAll('h2')) {
    const id = links.sectionOf(heading.textContent ?? '');
    if (!id) continue;
    const button = h(
      'button',
      {
        type: 'button',
        class: 'link-button evidence-link',
        'aria-label': `Evidence for ${heading.textContent}`,
      },
      'Evidence',
    );
    button.addEventListener('click', () => links.onEvidence(id));
    heading.append(' ', button);
  }
  const questions = new Set(links.followUps.map((question) => question.trim()));
  for (const item of body.querySelectorAll('li')) {
    const question = item.textContent?.trim() ?? '';
    if (!questions.has(question)) continue;
    const ask = h('button', { type: 'button', class: 'follow-up' }, question);
    // The question itself runs as the page is set to (Answer or Research report).
    ask.addEventListener('click', () => links.onFollowUp(question));
    const research = h(
      'button',
      { type: 'button', class: 'link-button', 'aria-label': `Research: ${question}` },
      'Research',
    );
    research.addEventListener('click', () => links.onFollowUp(question, 'research'));
    item.replaceChildren(ask, ' ', research);
    item.classList.add('follow-up-item');
  }
}
