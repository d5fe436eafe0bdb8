import type { ChunkAnalysis } from './analyze-chunk-prompt.js';

/** The text the full-text index holds for an analysed chunk: summary, entity names, relations. */
export function analysisText(analysis: ChunkAnalysis | undefined, documentSummary?: string): string {
  if (!analysis && !documentSummary) return '';
  const parts = [documentSummary ?? ''];
  if (analysis) {
    parts.push(analysis.summary, analysis.entities.map((entity) => entity.name).join('; '));
    parts.push(
      analysis.relationships
        .map((r) => `${r.subject} ${r.predicate.replace(/_/g, ' ')} ${r.object}`)
        .join('; '),
    );
    parts.push(analysis.insights.join(' '));
  }
  return parts.filter(Boolean).join('\n');
}
