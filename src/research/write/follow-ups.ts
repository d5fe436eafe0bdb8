import * as z from 'zod';
import { callLlm } from '../../agent/run-context.js';
import type { ResearchContext } from '../research-context.js';
import { untrustedRule } from './section-sources.js';

export const followUpsSchema = z.object({
  questions: z.array(z.string().min(1).max(300)).min(3).max(5),
});

const system = `Suggest 3 to 5 follow-up questions a reader of this report would ask next: what it leaves open, what would deepen it, what it could not establish. Each one precise and answerable by research, none already answered by the report.`;

/** 3 to 5 follow-up questions at the end of the report: what a reader would ask next. */
export async function suggestFollowUps(
  research: ResearchContext,
  title: string,
  summary: string,
  missing: readonly string[],
): Promise<string[]> {
  const { task } = research;
  const { object } = await callLlm(task, {
    role: 'writer',
    temperature: 0.5,
    system: `${system}\n${task.language.rule}\n${untrustedRule}`,
    prompt: `<topic>\n${research.input.topic}\n</topic>\n\n<report title="${title}">\n${summary}\n</report>${missing.length ? `\n\n<not-found>\n${missing.map((item) => `- ${item}`).join('\n')}\n</not-found>` : ''}`,
    schema: followUpsSchema,
    schemaName: 'research_follow_ups',
  });
  return [...new Set(object.questions.map((question) => question.trim()))].slice(0, 5);
}
