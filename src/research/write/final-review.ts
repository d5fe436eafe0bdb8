import * as z from 'zod';
import { callLlm } from '../../agent/run-context.js';
import type { ReportSection } from '../../events/research-result.js';
import { maxSections } from '../plan/plan-markdown.js';
import type { ResearchContext } from '../research-context.js';
import { keepKnownFootnotes } from './coherence-pass.js';
import type { ReportReferences } from './merge-references.js';
import { formatSources, untrustedRule } from './section-sources.js';
import { maxSectionChars, synthesisTemperature } from './write-section.js';

export const reviewSchema = z.object({
  approved: z.boolean(),
  feedback: z
    .array(z.object({ section: z.string().max(100), instruction: z.string().min(1).max(600) }))
    // One instruction per section at most: an edited outline may have up to maxSections of them.
    .max(maxSections)
    .default([])
    .describe('when not approved: what to change, per section id, specific enough to act on'),
});

const reviewSystem = `You are the Research Comptroller: review the final draft of a report before it is delivered.
Approve it unless a section fails the topic: it misses a question it was meant to answer while the text has the facts, contradicts another section, repeats itself, or is unclear. If not approved, give specific instructions per section (what to change, not "improve it"). Never ask for facts the draft does not have.`;

export const sectionRevisionSchema = z.object({
  markdown: z
    .string()
    .min(1)
    .max(maxSectionChars)
    .describe('the whole revised section body, without its heading'),
});

const revisionSystem = `You are the Synthesizer of a research team. Revise one section of a report following the reviewer's instructions. Revise, do not rewrite from scratch: keep what the instructions do not touch, keep each footnote marker [^n] on the sentence it supports, cite only listed sources, add no fact the sources do not state.`;

/**
 * Seed 004's comptroller review: may send the draft back once with specific feedback; the
 * sections it names are revised (not regenerated). Returns the ids of revised sections.
 */
export async function finalReview(
  research: ResearchContext,
  draft: { title: string; summary: string; sections: ReportSection[]; references: ReportReferences },
): Promise<string[]> {
  const { task } = research;
  research.say('synthesizer', 'final review of the draft');
  const body = draft.sections.map(
    (section) => `<section id="${section.id}" heading="${section.heading}">\n${section.markdown}\n</section>`,
  );
  const { object } = await callLlm(task, {
    role: 'writer',
    temperature: 0,
    system: `${reviewSystem}\n${untrustedRule}`,
    prompt: `<topic>\n${research.input.topic}\n</topic>\n\n<summary>\n${draft.summary}\n</summary>\n\n${body.join('\n\n')}`,
    schema: reviewSchema,
    schemaName: 'research_review',
  });
  const feedback = object.approved ? [] : object.feedback;
  const targets = draft.sections.filter((section) => feedback.some((item) => item.section === section.id));
  if (targets.length === 0) {
    research.say('synthesizer', 'the review approved the draft');
    return [];
  }
  research.say(
    'synthesizer',
    `the review sent back ${targets.length} section(s) with feedback; revising them`,
  );
  const known = new Set(draft.references.list.map((reference) => reference.index));
  await Promise.all(
    targets.map(async (section) => {
      const instructions = feedback
        .filter((item) => item.section === section.id)
        .map((item) => `- ${item.instruction}`);
      const { object: revised } = await callLlm(task, {
        role: 'writer',
        temperature: synthesisTemperature,
        system: `${revisionSystem}\n${task.language.rule}\n${untrustedRule}`,
        prompt: `<section heading="${section.heading}">\n${section.markdown}\n</section>\n\n<instructions>\n${instructions.join('\n')}\n</instructions>\n\n<sources>\n${formatSources(draft.references.list)}\n</sources>`,
        schema: sectionRevisionSchema,
        schemaName: 'research_section_revision',
      });
      section.markdown = keepKnownFootnotes(revised.markdown, known);
    }),
  );
  return targets.map((section) => section.id);
}
