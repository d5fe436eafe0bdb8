import * as z from 'zod';
import { InputError } from '../../core/errors/index.js';
import type { ResearchPlan } from '../../events/research-result.js';
import { maxQuestions, maxSections, parsePlanMarkdown } from './plan-markdown.js';

const text = (max: number) => z.string().trim().min(1, 'must not be empty').max(max);

/**
 * A plan as `outline` returns it (and `research --json` shows it), edited by a person or a
 * client: the same limits as the markdown outline. Ids may be missing or stale; they are given
 * again in order, and a data point follows its section by the id it had.
 */
const planObjectSchema = z
  .object({
    title: text(300),
    topic: text(4000).optional(),
    language: z.string().trim().max(40).optional().nullable(),
    sections: z
      .array(
        z
          .object({
            id: z.string().max(20).optional(),
            heading: text(300),
            questions: z
              .array(text(1000))
              .min(1, 'a section needs at least one question')
              .max(maxQuestions, `at most ${maxQuestions} questions per section; split the section`),
          })
          .strip(),
      )
      .min(1, 'an outline needs at least one section')
      .max(maxSections, `at most ${maxSections} sections; merge some`),
    dataPoints: z
      .array(
        z
          .object({
            description: text(1000),
            strategy: z.enum(['ask-llm', 'entity-overview', 'web-search']).default('web-search'),
            sectionId: z.string().max(20),
          })
          .strip(),
      )
      .max(maxSections * maxQuestions)
      .default([]),
    coreEntity: text(300).optional(),
    targetAttributes: z.array(text(300)).max(20).optional(),
  })
  .strip();

/**
 * An outline handed to research: the markdown `--outline-only` prints, or the plan object
 * `outline()` returns, either edited. Errors name what to fix (`param: 'outline'`).
 */
export function parseOutline(outline: unknown, options: { topic: string }): ResearchPlan {
  if (typeof outline === 'string') return parsePlanMarkdown(outline, { topic: options.topic });
  const parsed = planObjectSchema.safeParse(outline);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    const path = ['outline', ...issue.path].join('.');
    throw new InputError(`${path}: ${issue.message}`, { param: 'outline', code: 'invalid_outline' });
  }
  const plan = parsed.data;
  const ids = new Map(plan.sections.map((section, at) => [section.id ?? `s${at + 1}`, `s${at + 1}`]));
  const orphan = plan.dataPoints.find((point) => !ids.has(point.sectionId));
  if (orphan)
    throw new InputError(
      `outline.dataPoints: "${orphan.description.slice(0, 60)}" names section ${orphan.sectionId}, which the outline does not have`,
      { param: 'outline', code: 'invalid_outline' },
    );
  return {
    topic: options.topic,
    title: plan.title,
    language: plan.language ?? undefined,
    sections: plan.sections.map((section, at) => ({
      id: `s${at + 1}`,
      heading: section.heading,
      questions: section.questions,
    })),
    dataPoints: plan.dataPoints.map((point, at) => ({
      id: `d${at + 1}`,
      description: point.description,
      strategy: point.strategy,
      sectionId: ids.get(point.sectionId)!,
    })),
    ...(plan.coreEntity ? { coreEntity: plan.coreEntity } : {}),
    ...(plan.targetAttributes?.length ? { targetAttributes: plan.targetAttributes } : {}),
  };
}
