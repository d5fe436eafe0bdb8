import * as z from 'zod';
import { callLlm } from '../../agent/run-context.js';
import type { DataPointStrategy, ResearchPlan } from '../../events/research-result.js';
import type { ResearchContext } from '../research-context.js';

const strategies = [
  'ask-llm',
  'entity-overview',
  'web-search',
] as const satisfies readonly DataPointStrategy[];

export const planSchema = z.object({
  title: z.string().min(1).max(200).describe('the report title, in the language of the topic'),
  sections: z
    .array(
      z.object({
        heading: z.string().min(1).max(200),
        questions: z.array(z.string().min(1).max(300)).min(1).max(5).describe('what the section must answer'),
      }),
    )
    .min(1)
    .max(8),
  dataPoints: z
    .array(
      z.object({
        description: z.string().min(1).max(300).describe('a fact the report cannot do without'),
        strategy: z.enum(strategies),
        section: z.number().int().min(1).describe('the number of the section it belongs to (1 = first)'),
      }),
    )
    .max(20)
    .default([]),
  coreEntity: z
    .string()
    .max(200)
    .default('')
    .describe('fact-centric topics: the one entity the topic is about (else empty)'),
  targetAttributes: z
    .array(z.string().min(1).max(200))
    .max(10)
    .default([])
    .describe('fact-centric topics: the attributes of the core entity wanted'),
});

const system = `You are the Research Strategist of a research team. Plan a report on the user's topic.
Write an outline of 3 to 6 sections; each section gets 1 to 4 precise research questions that a web search can answer.
List the required data points: the facts (numbers, dates, names) the report cannot do without. For each, choose a strategy:
- "ask-llm": a stable fact you likely know; it will be verified with a targeted search
- "entity-overview": an attribute of the topic's core entity, found from an overview of it
- "web-search": anything recent, numeric, contested or local
If the topic is fact-centric (about one entity: a company, a person, a product, a place), name it as the core entity and list the attributes wanted; otherwise leave both empty.
Write the title, headings and questions in the language of the topic.`;

/** Seed 004's Research Extractor: the outline, the required data points and their strategies. */
export async function planResearch(research: ResearchContext, topic: string): Promise<ResearchPlan> {
  const { object } = await callLlm(research.task, {
    role: 'planner',
    system: `${system}\nToday is ${research.task.today}. ${research.task.language.rule}`,
    prompt: `<topic>\n${topic}\n</topic>`,
    schema: planSchema,
    schemaName: 'research_plan',
    // Planning wants precision, not variety: an outline that changes from run to run helps no one.
    temperature: research.task.config.research.planningTemperature,
  });
  const sections = object.sections.map((section, index) => ({
    id: `s${index + 1}`,
    heading: section.heading.trim(),
    questions: section.questions.map((question) => question.trim()),
  }));
  return {
    topic,
    title: object.title.trim(),
    language: research.task.language.name,
    sections,
    dataPoints: object.dataPoints.map((point, index) => ({
      id: `d${index + 1}`,
      description: point.description.trim(),
      strategy: point.strategy,
      sectionId: sections[Math.min(point.section, sections.length) - 1]!.id,
    })),
    ...(object.coreEntity.trim() ? { coreEntity: object.coreEntity.trim() } : {}),
    ...(object.targetAttributes.length
      ? { targetAttributes: object.targetAttributes.map((a) => a.trim()) }
      : {}),
  };
}
