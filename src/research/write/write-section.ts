import * as z from 'zod';
import { callLlm } from '../../agent/run-context.js';
import type { Reference } from '../../events/deep-search-result.js';
import type { SectionEvidence } from '../../events/research-result.js';
import type { ResearchContext } from '../research-context.js';
import { citeSources } from './cite-sources.js';
import { formatSources, sectionSources, untrustedRule } from './section-sources.js';

/** Synthesis and its revisions favour precision over variety: the same evidence, the same report. */
export const synthesisTemperature = 0.2;

/**
 * A section body is asked for in 120 to 400 words (about 2,600 characters); tables make it longer.
 * Within the writer's output limit (8,192 tokens) with room to spare.
 */
export const maxSectionChars = 10_000;

export const sectionSchema = z.object({
  markdown: z
    .string()
    .min(1)
    .max(maxSectionChars)
    .describe('the section body in markdown, without its heading; every factual sentence cites [^n]'),
});

const system = `You are the Synthesizer of a research team. Write one section of a report from the evidence given, and nothing else.
- State only what the evidence supports. Cite each factual sentence with footnote markers [^n], n being the number of a listed source whose quote supports it. Never invent a source number.
- When figures compare (years, countries, products), put them in a markdown table, each row citing its source.
- Say plainly what the evidence does not cover (listed as missing) instead of guessing.
- No heading for the section itself (it is added), no summary of the whole report, no mermaid chart, no footnote definitions.
- 120 to 400 words.`;

/** One section of the draft, from its own evidence only, its footnotes verified against the pages read. */
export async function writeSection(
  research: ResearchContext,
  evidence: SectionEvidence,
  dataPoints: readonly string[],
): Promise<{ markdown: string; references: Reference[] }> {
  const { task } = research;
  const { findings, sources } = sectionSources(evidence);
  const missing = evidence.coverage.items.filter((item) => !item.covered).map((item) => item.target);
  const prompt = [
    `<report-topic>\n${research.input.topic}\n</report-topic>`,
    `<section>\n${evidence.section.heading}\nQuestions: ${evidence.section.questions.join(' | ')}\n</section>`,
    dataPoints.length
      ? `<data-points>\n${dataPoints.map((point) => `- ${point}`).join('\n')}\n</data-points>`
      : '',
    missing.length ? `<missing>\n${missing.map((item) => `- ${item}`).join('\n')}\n</missing>` : '',
    `<findings>\n${findings.map((finding) => `## ${finding.question}\n${finding.answer}`).join('\n\n')}\n</findings>`,
    `<sources>\n${formatSources(sources) || '(none: say that nothing reliable was found)'}\n</sources>`,
  ].filter(Boolean);
  const { object } = await callLlm(task, {
    role: 'writer',
    temperature: synthesisTemperature,
    system: `${system}\n${task.language.rule}\n${untrustedRule}`,
    prompt: prompt.join('\n\n'),
    schema: sectionSchema,
    schemaName: 'research_section',
  });
  return citeSources(task.state, stripHeading(object.markdown, evidence.section.heading), sources);
}

/** Models often repeat the heading they were told not to write. */
function stripHeading(markdown: string, heading: string): string {
  const lines = markdown.trim().split('\n');
  const first = lines[0]?.replace(/^#+\s*/, '').trim();
  if (lines[0]?.startsWith('#') && first?.toLowerCase() === heading.toLowerCase()) lines.shift();
  return lines.join('\n').trim();
}
