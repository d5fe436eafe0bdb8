import type { SearchHit, SearchProvider } from '../../src/providers/spec/search-provider.js';
import { createFakeReader, type FakeReader } from '../../src/testing/fake-reader.js';
import type { ScriptedCall } from '../../src/testing/scripted-llm.js';
import type { LlmRoute } from './routed-llm.js';

/** One fact of the fake world: a page that states it, found by questions naming its keywords. */
export interface WorldFact {
  /** A question, query or coverage item is about this fact when it contains one of these (any case). */
  keywords: string[];
  url: string;
  title: string;
  /** The sentence on the page stating the fact: the quote every citation of it uses. */
  sentence: string;
  /** Coverage items this fact answers, by the same rule (default: `keywords`). */
  covers?: string[];
}

export interface FakeResearchWorld {
  search: SearchProvider & { readonly queries: string[] };
  reader: FakeReader;
  /**
   * Routes answering the deep-search loop (search, visit, answer, evaluation) and the research
   * controller's librarian and next-hop calls from what the prompt shows; a test adds the plan
   * and whatever it wants to steer.
   */
  routes: LlmRoute[];
}

/**
 * A small web for research tests and the benchmark: each fact has one page; the fake agent
 * searches its current question, visits the fact's page when it is offered, then answers quoting
 * it; the fake librarian marks an item covered when an excerpt in its prompt holds the item's
 * fact, quoting that sentence. Nothing depends on call order, so sections may run in parallel.
 */
export function createFakeResearchWorld(
  facts: WorldFact[],
  options: { delayMs?: number } = {},
): FakeResearchWorld {
  const factFor = (text: string) => {
    const lower = text.toLowerCase();
    return facts.find((fact) => fact.keywords.some((keyword) => lower.includes(keyword.toLowerCase())));
  };
  const queries: string[] = [];
  const search: FakeResearchWorld['search'] = {
    specificationVersion: 'v1',
    id: 'fake',
    queries,
    async search(query): Promise<SearchHit[]> {
      queries.push(query);
      const fact = factFor(query);
      return fact ? [{ url: fact.url, title: fact.title, snippet: fact.title }] : [];
    },
  };
  const reader = createFakeReader(
    Object.fromEntries(
      facts.map((fact) => [
        fact.url,
        `<html><head><title>${fact.title}</title></head><body><article><h1>${fact.title}</h1><p>${fact.sentence}</p><p>Other matters are discussed elsewhere on this site.</p></article></body></html>`,
      ]),
    ),
  );
  const turns = new Map<string, number>();
  const delayMs = options.delayMs;
  // Decides from what the prompt shows, not from call order: answer once the fact is known,
  // read a world page when one is offered, search the question once, else answer with nothing.
  const agentStep = (call: ScriptedCall) => {
    const question = lastTag(call.prompt, 'question') ?? '';
    const turn = turns.get(question) ?? 0;
    turns.set(question, turn + 1);
    const fact = factFor(question);
    const allowed = JSON.stringify(call.responseFormat ?? {});
    const can = (action: string) => allowed.includes(`"${action}"`);
    if (fact && call.prompt.includes(fact.sentence) && can('answer')) {
      return { think: 'the fact is known', action: 'answer', answer: answerFor(fact) };
    }
    const offered = lastTag(call.prompt, 'url-list') ?? '';
    // Its own fact's page; any world page only for a question about none (the section's heading).
    const page = (fact ? [fact] : facts).find((candidate) => offered.includes(candidate.url));
    if (page && can('visit'))
      return { think: 'read the source', action: 'visit', visit: { targets: [page.url] } };
    if ((turn === 0 || !can('answer')) && can('search')) {
      return {
        think: 'search first',
        action: 'search',
        search: { queries: [`${question.slice(0, 180)}${turn ? ' ' : ''}`] },
      };
    }
    return { think: 'answer', action: 'answer', answer: answerFor(fact) };
  };
  const pass = (criterion: string): LlmRoute => ({
    schemaName: `evaluate_${criterion}`,
    reply: { think: 'ok', pass: true, improvement: '' },
    delayMs,
  });
  const routes: LlmRoute[] = [
    { schemaName: 'agent_action', reply: agentStep, delayMs, label: 'agent' },
    {
      schemaName: 'final_answer',
      reply: (call: ScriptedCall) => ({
        think: 'final',
        answer: answerFor(factFor(lastTag(call.prompt, 'question') ?? '')),
      }),
      delayMs,
    },
    {
      schemaName: 'evaluation_criteria',
      reply: {
        think: 'plain',
        needsFreshness: false,
        needsPlurality: false,
        needsCompleteness: false,
        needsStrict: false,
      },
      delayMs,
    },
    ...['definitive', 'freshness', 'plurality', 'completeness', 'strict'].map(pass),
    {
      schemaName: 'failure_analysis',
      reply: { recap: 'searched', blame: 'too early', improvement: 'search more' },
      delayMs,
    },
    {
      schemaName: 'librarian_check',
      reply: (call: ScriptedCall) => librarian(call, facts),
      delayMs,
      label: 'librarian',
    },
    { schemaName: 'next_hop_queries', reply: nextHop, delayMs, label: 'next hop' },
    // The writer: a plain section per call, nothing to revise, no contradictions.
    {
      schemaName: 'research_section',
      reply: { markdown: 'What the section found.' },
      delayMs,
      label: 'writer',
    },
    {
      schemaName: 'research_coherence',
      reply: { summary: 'What the research found.', sections: [], chart: null },
      delayMs,
    },
    { schemaName: 'research_claims', reply: { claims: [] }, delayMs },
    { schemaName: 'research_contradictions', reply: { contradictions: [] }, delayMs },
    { schemaName: 'research_review', reply: { approved: true, feedback: [] }, delayMs },
    {
      schemaName: 'research_follow_ups',
      reply: { questions: ['What changed since?', 'Which sources disagree?', 'What comes next?'] },
      delayMs,
    },
  ];
  return { search, reader, routes };
}

function answerFor(fact: WorldFact | undefined) {
  if (!fact) return { text: 'Nothing was found on this.', references: [] };
  return { text: `${fact.sentence}[^1]`, references: [{ url: fact.url, quote: fact.sentence }] };
}

/** Covers each item whose fact's sentence is in an excerpt of the prompt, quoting it. */
function librarian(call: ScriptedCall, facts: WorldFact[]) {
  const excerpts = lastTag(call.prompt, 'excerpts') ?? '';
  const items = numberedLines(lastTag(call.prompt, 'items') ?? '');
  return {
    think: 'checked',
    items: items.map(({ id, text }) => {
      const lower = text.toLowerCase();
      const fact = facts.find(
        (candidate) =>
          (candidate.covers ?? candidate.keywords).some((word) => lower.includes(word.toLowerCase())) &&
          excerpts.includes(candidate.url) &&
          excerpts.includes(candidate.sentence),
      );
      const found = fact !== undefined;
      return {
        id,
        covered: found,
        quotes: fact ? [{ url: fact.url, quote: fact.sentence }] : [],
        value: '',
        verification: found ? 'confirmed' : 'unverified',
        note: found ? 'stated on the page' : 'no excerpt gives it',
      };
    }),
  };
}

/** Three variations for each missing item. */
function nextHop(call: ScriptedCall) {
  const missing = numberedLines(lastTag(call.prompt, 'missing') ?? '');
  return {
    think: 'target the gaps',
    gaps: missing.map(({ id, text }) => {
      const target = text.replace(/\s*\(librarian:.*\)$/, '');
      return { id, queries: [`${target} statistics`, `${target} official report`, `${target} news`] };
    }),
    pivot: '',
  };
}

function numberedLines(block: string): Array<{ id: number; text: string }> {
  return [...block.matchAll(/^(\d+)\. (?:\((?:question|data point)\) )?(.+)$/gm)].map((match) => ({
    id: Number(match[1]),
    text: match[2]!,
  }));
}

function lastTag(text: string, tag: string): string | undefined {
  const close = text.lastIndexOf(`</${tag}>`);
  if (close === -1) return undefined;
  const open = text.lastIndexOf(`<${tag}>`, close);
  if (open === -1) return undefined;
  return text.slice(open + tag.length + 2, close).trim();
}
