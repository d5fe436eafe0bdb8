import * as z from 'zod';
import { callLlm } from '../../agent/run-context.js';
import type { Reference } from '../../events/deep-search-result.js';
import type { ReportSection } from '../../events/research-result.js';
import type { ResearchContext } from '../research-context.js';
import { tidy } from './cite-sources.js';
import { formatSources, untrustedRule } from './section-sources.js';
import { maxSectionChars, synthesisTemperature } from './write-section.js';

export const coherenceSchema = z.object({
  summary: z.string().min(1).max(2000).describe('3 to 5 sentences: the answer to the topic, citing [^n]'),
  sections: z
    .array(z.object({ id: z.string().max(100), markdown: z.string().min(1).max(maxSectionChars) }))
    // A planned outline has at most 8 sections, one given with --outline 12: room to spare, as extra
    // sections would be cut silently.
    .max(16)
    .describe('the sections you changed, by id, with their whole new body'),
  chart: z
    .object({
      section: z.string().max(100).describe('id of the section the chart belongs after'),
      caption: z.string().max(300),
      mermaid: z.string().max(4000).describe('mermaid source only, without fences'),
    })
    .nullable()
    .default(null)
    .describe('one chart, only when a trend or structure is better seen than read; else null'),
});

const system = `You are the Synthesizer of a research team, editing a whole report drafted section by section.
- Make it read as one document: one term for one thing, no repetition across sections (keep it where it fits best), short transitions where sections meet.
- Keep every footnote marker [^n] on the sentence it supports; never add a number that is not in the source list; never add facts.
- Write a summary of 3 to 5 sentences that answers the topic, with footnotes.
- Return only the sections you changed, each with its whole new body (no heading).
- If a trend over time or a structure is better seen than read, add one mermaid chart (xychart-beta, pie, flowchart, timeline) built only from cited figures; otherwise chart is null.`;

const diagrams = /^(xychart-beta|pie|flowchart|graph|timeline|gantt|mindmap|sequenceDiagram|quadrantChart)\b/;

/** The coherence pass over the whole draft: terms, repetition, transitions, a summary, maybe a chart. */
export async function coherencePass(
  research: ResearchContext,
  draft: { title: string; sections: ReportSection[]; references: readonly Reference[] },
): Promise<{ summary: string; sections: ReportSection[] }> {
  const { task } = research;
  const body = draft.sections.map(
    (section) => `<section id="${section.id}" heading="${section.heading}">\n${section.markdown}\n</section>`,
  );
  const { object } = await callLlm(task, {
    role: 'writer',
    temperature: synthesisTemperature,
    system: `${system}\n${task.language.rule}\n${untrustedRule}`,
    prompt: `<topic>\n${research.input.topic}\n</topic>\n\n<title>${draft.title}</title>\n\n${body.join('\n\n')}\n\n<sources>\n${formatSources(draft.references)}\n</sources>`,
    schema: coherenceSchema,
    schemaName: 'research_coherence',
  });
  const known = new Set(draft.references.map((reference) => reference.index));
  const edited = new Map(
    object.sections.map((section) => [section.id, keepKnownFootnotes(section.markdown, known)]),
  );
  const sections = draft.sections.map((section) => ({
    ...section,
    markdown: edited.get(section.id) || section.markdown,
  }));
  const chart = object.chart;
  const mermaid = chart?.mermaid.replace(/^```(?:mermaid)?\s*|```\s*$/g, '').trim();
  if (chart && mermaid && diagrams.test(mermaid)) {
    const target = sections.find((section) => section.id === chart.section) ?? sections.at(-1);
    if (target)
      target.markdown = `${target.markdown}\n\n\`\`\`mermaid\n${mermaid}\n\`\`\`\n\n*${chart.caption.trim()}*`;
  }
  return { summary: keepKnownFootnotes(object.summary, known), sections };
}

/** Footnote markers the report cannot resolve are removed rather than shown. */
export function keepKnownFootnotes(markdown: string, known: ReadonlySet<number>): string {
  return tidy(
    markdown.replace(/\[\^(\d+)\]/g, (match, number: string) => (known.has(Number(number)) ? match : '')),
  );
}
