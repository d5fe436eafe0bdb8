import * as z from 'zod';
import { callLlm } from '../../agent/run-context.js';
import type { PageStore, StoredPage } from '../../agent/state/page-store.js';
import type { Reference } from '../../events/deep-search-result.js';
import type { Contradiction, ResearchEvidence } from '../../events/research-result.js';
import { findQuote } from '../../retrieval/find-quote.js';
import { countIndependentSources, type PageGrouping } from '../../retrieval/page-groups.js';
import type { ResearchContext } from '../research-context.js';
import { ReportReferences } from './merge-references.js';
import { formatSources, untrustedRule } from './section-sources.js';
import { type TrustOf, trustFor } from './source-trust.js';

export const contradictionsSchema = z.object({
  contradictions: z
    .array(
      z.object({
        topic: z.string().min(1).max(300).describe('the data point the sources disagree on'),
        sides: z
          .array(z.object({ claim: z.string().min(1).max(500), source: z.number().int().min(1) }))
          .min(2)
          .max(4),
      }),
    )
    .max(5),
});

const system = `You compare the quotes a research team collected. List the data points on which sources really disagree (different figures, dates or facts for the same thing, same scope and period); not differences of scope, time or wording. For each, give each side's claim and the number of the source quoting it. Usually there are none: then return an empty list.`;

/**
 * When sources disagree on a data point the report says so, with each side's quote and trust,
 * rather than silently picking one. Quotes are the gathered (verified) references; a side whose
 * source number is unknown is dropped, and a disagreement needs two independent sources: copies of
 * one story (page groups of the task's pages) are one source, shown once, and never disagree with
 * (or back) each other.
 */
export async function findContradictions(
  research: ResearchContext,
  evidence: ResearchEvidence,
  trustOf?: TrustOf,
): Promise<Contradiction[]> {
  const { pages } = research.task.state;
  const grouping = pages.grouping();
  const sources = groupedSources(evidence, pages);
  const given = evidence.contradictions.map((contradiction) => withTrust(contradiction, trustOf));
  if (
    countIndependentSources(
      sources.list.map((source) => source.url),
      grouping,
    ) < 2
  )
    return given;
  const points = evidence.plan.dataPoints.map((point) => `- ${point.description}`);
  const { object } = await callLlm(research.task, {
    role: 'writer',
    temperature: 0,
    system: `${system}\n${untrustedRule}`,
    prompt: `${points.length ? `<data-points>\n${points.join('\n')}\n</data-points>\n\n` : ''}<sources>\n${formatSources(sources.list)}\n</sources>`,
    schema: contradictionsSchema,
    schemaName: 'research_contradictions',
    repair: readSidesWrittenAsText,
  });
  const found = object.contradictions.flatMap((item) => {
    const sides = item.sides.flatMap((side) => {
      const source: Reference | undefined = sources.list[side.source - 1];
      return source ? [{ claim: side.claim.trim(), url: source.url, quote: source.quote }] : [];
    });
    if (
      countIndependentSources(
        sides.map((side) => side.url),
        grouping,
      ) < 2
    )
      return [];
    return [withTrust({ topic: item.topic.trim(), sides }, trustOf)];
  });
  return [...given, ...found];
}

/**
 * The gathered quotes, one entry per story and quote: a quote read on a copy is listed at its
 * group's original (the copies in `alsoAt`), so the model sees one story once.
 */
export function groupedSources(evidence: ResearchEvidence, pages: PageStore): ReportReferences {
  const grouping = pages.grouping();
  const sources = new ReportReferences();
  for (const section of evidence.sections)
    for (const finding of section.findings)
      for (const reference of finding.references) sources.add(atOriginal(reference, pages, grouping));
  return sources;
}

function atOriginal(reference: Reference, pages: PageStore, grouping: PageGrouping<StoredPage>): Reference {
  const group = grouping.groupOf(reference.url);
  if (!group) return reference;
  const { original } = group;
  const alsoAt = [original, ...group.copies].map((page) => page.url).filter((url) => url !== original.url);
  if (original.url === reference.url) return alsoAt.length ? { ...reference, alsoAt } : reference;
  // The original need not hold a copy's own words (its header): those stay at the copy.
  const match = findQuote(reference.quote, pages.folded(original));
  if (!match) return reference;
  return {
    ...reference,
    url: original.url,
    title: original.title || reference.title,
    quote: match.quote,
    alsoAt,
  };
}

function withTrust(contradiction: Contradiction, trustOf?: TrustOf): Contradiction {
  return {
    ...contradiction,
    sides: contradiction.sides.map((side) => ({ ...side, trust: side.trust ?? trustFor(side.url, trustOf) })),
  };
}

const sourceMention =
  /\[\^?(\d{1,3})\]|\bsource\s*(?:n(?:o|umber)\.?\s*)?#?\s*(\d{1,3})\b|\((\d{1,3})\)\s*$/i;

/**
 * Small models write a side as one string ("42 MW [3]", "Source 2: 40 MW") where an object
 * `{claim, source}` is asked: the source number is read from the text and the rest is the claim.
 * A side naming no source cannot be placed and is dropped, and so is a disagreement left with
 * fewer than two sides. Objects pass untouched; the schema judges the result.
 */
export function readSidesWrittenAsText(value: unknown): unknown {
  const list = (value as { contradictions?: unknown } | null)?.contradictions;
  if (!Array.isArray(list)) return value;
  let changed = false;
  const contradictions = list.flatMap((item) => {
    const sides = (item as { sides?: unknown } | null)?.sides;
    if (!Array.isArray(sides) || !sides.some((side) => typeof side === 'string')) return [item];
    changed = true;
    const read = sides.flatMap((side) => (typeof side === 'string' ? sideFromText(side) : [side]));
    return read.length >= 2 ? [{ ...(item as object), sides: read }] : [];
  });
  return changed ? { ...(value as object), contradictions } : value;
}

function sideFromText(text: string): Array<{ claim: string; source: number }> {
  const match = sourceMention.exec(text);
  if (!match) return [];
  const source = Number(match[1] ?? match[2] ?? match[3]);
  const claim = text
    .replace(match[0], ' ')
    .replace(/^[\s:,;.-]+|[\s:,;-]+$/g, '')
    .replace(/\s+/g, ' ');
  return claim ? [{ claim, source }] : [];
}
