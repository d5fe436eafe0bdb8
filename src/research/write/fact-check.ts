import { fenceUntrusted } from '../../agent/context/fence-untrusted.js';
import { callLlm } from '../../agent/run-context.js';
import { isAbortError } from '../../core/errors/index.js';
import type { Reference } from '../../events/deep-search-result.js';
import type { FactCheckReport, ReportSection } from '../../events/research-result.js';
import { independentSourcesPhrase, quotesByStory } from '../../retrieval/page-groups.js';
import type { ResearchContext } from '../research-context.js';
import { citeSources } from './cite-sources.js';
import {
  claimsSchema,
  claimsSystem,
  revisionsSchema,
  revisionsSystem,
  verdictsSchema,
  verdictsSystem,
} from './fact-check-prompts.js';
import {
  citedSentences,
  claimKey,
  claimText,
  footnotesOf,
  locateSentence,
  replaceSentence,
} from './locate-sentence.js';
import type { ReportReferences } from './merge-references.js';
import { formatSources, untrustedRule } from './section-sources.js';
import { synthesisTemperature } from './write-section.js';

/** Verification searches per cycle; unsupported claims beyond it are removed unverified. */
const maxVerifications = 6;
/** A verification search is a small deep search: a few steps to find and read one source. */
const verificationLimits = { maxSteps: 5, maxTokens: 40_000 };

/** What one synthesis/refinement cycle remembers: claims already checked are never checked again. */
export interface FactCheckCycle {
  checked: Set<string>;
  report: FactCheckReport;
}

export function createFactCheckCycle(): FactCheckCycle {
  return { checked: new Set(), report: { claims: 0, supported: 0, revised: 0, removed: 0 } };
}

interface Claim {
  section: ReportSection;
  sentence: string;
  quotes: Reference[];
}

/**
 * Seed 004's fact-check: the draft's factual claims (those the model lists, and every sentence
 * that cites a source) are checked against the quotes of the sources they cite; the unsupported ones get a verification search, then are revised from what it found
 * (with verified footnotes) or removed. Edits `sections` in place; adds to `cycle.report`.
 */
export async function factCheck(
  research: ResearchContext,
  sections: ReportSection[],
  references: ReportReferences,
  cycle: FactCheckCycle,
): Promise<void> {
  const { task } = research;
  research.say('synthesizer', 'fact-checking the draft: listing its factual claims');
  const drafted = sections.map((section) => `<section id="${section.id}">\n${section.markdown}\n</section>`);
  const { object } = await callLlm(task, {
    role: 'writer',
    temperature: 0,
    system: `${claimsSystem}\n${task.language.rule}\n${untrustedRule}`,
    prompt: drafted.join('\n\n'),
    schema: claimsSchema,
    schemaName: 'research_claims',
  });
  const claims: Claim[] = [];
  const add = (section: ReportSection | undefined, sentence: string) => {
    const key = claimKey(sentence);
    const at =
      section && key && !cycle.checked.has(key) ? locateSentence(section.markdown, sentence) : undefined;
    if (!section || !at) return;
    cycle.checked.add(key);
    // The footnotes the draft's own sentence cites: the model's copy may have renumbered, moved
    // or dropped them (a writer numbering footnotes in its own order).
    const own = section.markdown.slice(at.start, at.end);
    const quotes = footnotesOf(own).flatMap((index) => references.list[index - 1] ?? []);
    claims.push({ section, sentence: own, quotes });
  };
  for (const { section: id, sentence } of object.claims)
    add(
      sections.find((candidate) => candidate.id === id),
      sentence,
    );
  // Every sentence that cites a source is a claim, listed by the model or not: a report with
  // cited sentences and no claim checked ("fact-check 0/0") checked nothing.
  for (const section of sections)
    for (const sentence of citedSentences(section.markdown)) add(section, sentence);
  if (claims.length === 0) return;
  cycle.report.claims += claims.length;
  const unsupported = await judge(research, claims);
  cycle.report.supported += claims.length - unsupported.length;
  research.say(
    'synthesizer',
    unsupported.length === 0
      ? `all ${claims.length} claims are supported by the quotes they cite`
      : `${unsupported.length} of ${claims.length} claims not supported by the quotes they cite: verifying them`,
  );
  if (unsupported.length > 0) await refine(research, unsupported, references, cycle);
}

/** The claims their own quotes do not state (a claim citing nothing is unsupported). */
async function judge(research: ResearchContext, claims: Claim[]): Promise<Claim[]> {
  const cited = claims.filter((claim) => claim.quotes.length > 0);
  if (cited.length === 0) return claims;
  const grouping = research.task.state.pages.grouping();
  const listed = cited.map((claim, at) => {
    const support = quotesByStory(claim.quotes, grouping);
    const quotes = support.quotes.map(
      (quote) => `   - "${fenceUntrusted(quote.quote.replace(/\s+/g, ' '))}" (${quote.url})`,
    );
    return `${at + 1}. ${claimText(claim.sentence)} [cites ${independentSourcesPhrase(support.sources)}]\n${quotes.join('\n')}`;
  });
  const { object } = await callLlm(research.task, {
    role: 'writer',
    temperature: 0,
    system: `${verdictsSystem}\n${untrustedRule}`,
    prompt: `<claims>\n${listed.join('\n')}\n</claims>`,
    schema: verdictsSchema,
    schemaName: 'research_claim_check',
  });
  const supported = new Set(
    object.verdicts.filter((verdict) => verdict.supported).map((verdict) => verdict.claim),
  );
  return claims.filter((claim) => claim.quotes.length === 0 || !supported.has(cited.indexOf(claim) + 1));
}

/** Verification searches for the unsupported claims, then a revision or removal of each. */
async function refine(
  research: ResearchContext,
  claims: Claim[],
  references: ReportReferences,
  cycle: FactCheckCycle,
): Promise<void> {
  const verified = await Promise.all(
    claims.map(async (claim, at) => (at < maxVerifications ? verify(research, claim) : [])),
  );
  const withEvidence = claims.map((claim, at) => ({ claim, sources: verified[at]! }));
  const revisable = withEvidence.filter((entry) => entry.sources.length > 0);
  const revisions = revisable.length > 0 ? await revise(research, revisable) : new Map<Claim, string>();
  for (const { claim, sources } of withEvidence) {
    const revision = revisions.get(claim);
    const cited = revision ? citeSources(research.task.state, revision, sources) : undefined;
    if (!cited || cited.references.length === 0) {
      claim.section.markdown =
        replaceSentence(claim.section.markdown, claim.sentence, '') ?? claim.section.markdown;
      cycle.report.removed++;
      research.say(
        'synthesizer',
        `removed an unsupported claim: ${claimText(claim.sentence)}`,
        claim.section.id,
      );
      continue;
    }
    const sentence = references.adopt(cited.markdown, cited.references);
    claim.section.markdown =
      replaceSentence(claim.section.markdown, claim.sentence, sentence) ?? claim.section.markdown;
    cycle.checked.add(claimKey(sentence));
    if (claimKey(sentence) === claimKey(claim.sentence)) cycle.report.supported++;
    else {
      cycle.report.revised++;
      research.say(
        'synthesizer',
        `revised a claim from a verification search: ${claimText(sentence)}`,
        claim.section.id,
      );
    }
  }
}

/** A small deep search for the claim; its references were verified against what it read. */
async function verify(research: ResearchContext, claim: Claim): Promise<Reference[]> {
  research.say('search', `verifying: ${claimText(claim.sentence)}`, claim.section.id);
  try {
    const result = await research.runPart(`Is this true? ${claimText(claim.sentence)}`, {
      limits: verificationLimits,
      part: { purpose: 'verification', section: claim.section.id },
    });
    return result.references.map((reference, at) => ({ ...reference, index: at + 1 }));
  } catch (error) {
    if (isAbortError(error) || research.input.signal?.aborted) throw error;
    return [];
  }
}

async function revise(
  research: ResearchContext,
  entries: Array<{ claim: Claim; sources: Reference[] }>,
): Promise<Map<Claim, string>> {
  const listed = entries.map(
    ({ claim, sources }, at) =>
      `<claim n="${at + 1}">\n${claimText(claim.sentence)}\n<new-sources>\n${formatSources(sources)}\n</new-sources>\n</claim>`,
  );
  const { object } = await callLlm(research.task, {
    role: 'writer',
    temperature: synthesisTemperature,
    system: `${revisionsSystem}\n${research.task.language.rule}\n${untrustedRule}`,
    prompt: listed.join('\n\n'),
    schema: revisionsSchema,
    schemaName: 'research_revision',
  });
  const revisions = new Map<Claim, string>();
  for (const revision of object.revisions) {
    const entry = entries[revision.claim - 1];
    if (entry && revision.action === 'revise' && revision.sentence.trim())
      revisions.set(entry.claim, revision.sentence.trim());
  }
  return revisions;
}
