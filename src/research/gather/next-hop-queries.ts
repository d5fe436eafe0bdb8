import * as z from 'zod';
import { callLlm, type RunContext } from '../../agent/run-context.js';
import type { CoverageItem, PlanSection } from '../../events/research-result.js';
import { foldText } from '../../retrieval/match-text.js';

export const nextHopSchema = z.object({
  think: z.string().max(2000).default(''),
  gaps: z
    .array(
      z.object({
        // Optional: small models often write each gap as a bare list of queries, which is enough.
        id: z.number().int().min(1).optional().describe('the number of the missing item'),
        queries: z.array(z.string().min(1).max(300)).min(1).max(8),
      }),
    )
    .max(40),
  pivot: z.string().max(500).default('').describe('when asked for one: the new angle, in one sentence'),
});

export interface NextHop {
  questions: string[];
  /** The new angle, when one was asked for. */
  pivot?: string;
}

/**
 * Seed 004's next-hop query generation with the multi-query strategy: for each item the librarian
 * found missing, several differently worded questions (other terms, another source type, a
 * narrower or broader scope), so the next hop does not repeat the last one. `temperature` is the
 * comptroller's; `pivot` asks for a new angle first.
 */
export async function nextHopQueries(
  context: RunContext,
  input: {
    topic: string;
    section: PlanSection;
    missing: CoverageItem[];
    asked: readonly string[];
    perGap: number;
    temperature: number;
    pivot: boolean;
  },
): Promise<NextHop> {
  const { section, missing, asked, perGap } = input;
  const pivotRule = input.pivot
    ? '\nThe research on this section is stuck. First choose a new angle (a different framing, source type, related entity or time frame) and write it in "pivot"; base the questions on it.'
    : '';
  const { object } = await callLlm(context, {
    role: 'planner',
    system: `You are the Research Strategist. Some items of a report section are still missing after searching. For each missing item write ${perGap} diverse search questions: different wording, synonyms, another source type (statistics office, trade association, news, study), a narrower or a broader scope. Never repeat a question already asked. Write in the language of the topic.${pivotRule}\nToday is ${context.today}.`,
    prompt: [
      `<topic>\n${input.topic}\n</topic>`,
      `<section>\n${section.heading}\n</section>`,
      `<missing>\n${missing.map((item, index) => `${index + 1}. ${item.target}${item.note ? ` (librarian: ${item.note})` : ''}`).join('\n')}\n</missing>`,
      `<asked>\n${asked.slice(-30).join('\n')}\n</asked>`,
    ].join('\n\n'),
    schema: nextHopSchema,
    schemaName: 'next_hop_queries',
    temperature: input.temperature,
  });
  const seen = new Set(asked.map((question) => foldText(question).folded));
  const questions: string[] = [];
  for (const gap of object.gaps) {
    if (gap.id !== undefined && gap.id > missing.length) continue;
    for (const query of gap.queries.slice(0, perGap)) {
      const key = foldText(query).folded;
      if (!key || seen.has(key)) continue;
      seen.add(key);
      questions.push(query.trim());
    }
  }
  const pivot = object.pivot.trim();
  return { questions, ...(input.pivot && pivot ? { pivot } : {}) };
}
