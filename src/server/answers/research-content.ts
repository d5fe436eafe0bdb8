import { type AnswerInput, type CompletionContent, referenceDetails } from './answer-request.js';
import { urlCitations } from './url-citations.js';

/**
 * The research model's reply: the report's markdown (summary, sections, disagreements, follow-up
 * questions, footnotes) as content, a citation per footnote marker, and the report's parts in
 * `deepsearch` for clients that want them.
 */
export async function answerResearch(input: AnswerInput): Promise<CompletionContent> {
  const { runtime, request, signal } = input;
  const { result: report } = await runtime.run({
    mode: 'research',
    question: request.question,
    signal,
    config: request.config,
    onEvent: input.onEvent,
  });
  const text = report.markdown;
  return {
    text,
    annotations: urlCitations(text, report.references),
    usage: report.usage,
    details: {
      mode: 'research',
      title: report.title,
      summary: report.summary,
      follow_ups: report.followUps,
      fact_check: report.factCheck,
      contradictions: report.contradictions,
      sections: report.sections.map((section) => ({
        id: section.id,
        heading: section.heading,
        questions: section.questions,
        coverage: section.coverage,
      })),
      references: referenceDetails(report.references),
      plan: report.plan,
      duration_ms: report.durationMs,
      skipped: report.skipped ?? [],
      warnings: report.warnings,
    },
  };
}
