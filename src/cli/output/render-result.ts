import type { DeepSearchResult } from '../../events/deep-search-result.js';
import { describeAlsoAt } from '../../retrieval/page-groups.js';
import { describeSkipped } from '../../retrieval/skipped-page.js';
import { formatTokens, plural, type Terminal } from '../io/terminal-style.js';

/**
 * The answer for people, as markdown: the text with its [^n] markers, the sources as footnote
 * definitions (`[^1]: Title <url>`, the quote on an indented continuation line), then confidence
 * and cost, and the pages that could not be read.
 */
export function renderResultText(
  result: DeepSearchResult,
  terminal: Pick<Terminal, 'style'>,
  /** Whether the run is kept (then `runs evidence` lists the pages it could not read). */
  kept = true,
): string {
  const { style } = terminal;
  const lines: string[] = [result.answer, ''];
  if (result.references.length > 0) {
    lines.push(style('bold', 'Sources'), '');
    for (const reference of result.references) {
      const kind = reference.quoteKind === 'sentence' ? style('dim', ' (closest sentence)') : '';
      lines.push(`[^${reference.index}]: ${reference.title} <${reference.url}>`);
      lines.push(`    "${reference.quote.replace(/\s+/g, ' ')}"${kind}`);
      const alsoAt = describeAlsoAt(reference.alsoAt);
      if (alsoAt) lines.push(style('dim', `    ${alsoAt}`));
    }
    lines.push('');
  }
  const colour = result.confidence === 'high' ? 'green' : result.confidence === 'medium' ? 'yellow' : 'red';
  lines.push(
    `${style(colour, `Confidence: ${result.confidence}`)} ${style('dim', `— ${result.confidenceReason}`)}`,
  );
  lines.push(style('dim', summaryLine(result)));
  // Records written before the list existed have none.
  const skipped = describeSkipped(result.skipped ?? []);
  if (skipped)
    lines.push(
      style(
        'yellow',
        kept
          ? `${skipped} — deepsearch runs evidence ${result.runId} lists them`
          : `${skipped} (--json lists them)`,
      ),
    );
  return lines.join('\n');
}

export function summaryLine(result: DeepSearchResult): string {
  const roles = Object.entries(result.usage.byRole)
    .map(([role, usage]) => `${role} ${formatTokens(usage?.totalTokens ?? 0)}`)
    .join(', ');
  const seconds = (result.durationMs / 1000).toFixed(1);
  return (
    `${plural(result.steps, 'step')} · ${formatTokens(result.usage.totalTokens)} tokens (${roles || 'none'}) · ` +
    `${plural(result.usage.searchCalls, 'search', 'searches')} · ${plural(result.usage.readCalls, 'page')} · ${seconds}s`
  );
}

/** The single JSON document printed by --json. */
export function resultJson(result: DeepSearchResult): string {
  return JSON.stringify(
    {
      runId: result.runId,
      question: result.question,
      answer: result.answer,
      references: result.references.map(({ index, url, title, quote, quoteKind, alsoAt }) => ({
        index,
        url,
        title,
        quote,
        quoteKind,
        ...(alsoAt?.length ? { alsoAt } : {}),
      })),
      confidence: result.confidence,
      confidenceReason: result.confidenceReason,
      ...(result.independentSources !== undefined ? { independentSources: result.independentSources } : {}),
      origin: result.origin,
      usage: result.usage,
      steps: result.steps,
      durationMs: result.durationMs,
      timing: result.timing,
      budget: result.budget,
      visitedUrls: result.visitedUrls,
      skipped: result.skipped ?? [],
      warnings: result.warnings,
      computations: result.computations,
    },
    null,
    2,
  );
}
