import type { FakeOpenAiRequest, FakeOpenAiRoute } from '../../src/testing/fake-openai-server.js';
import { createFakeReader } from '../../src/testing/fake-reader.js';
import { createFakeSearch } from '../../src/testing/fake-search.js';
import { heatPumpTexts } from './heat-pump-world.js';
import { alwaysPassingEvaluation } from './passing-evaluation.js';

function reply(object: unknown) {
  return { content: JSON.stringify(object), usage: { prompt_tokens: 900, completion_tokens: 60 } };
}

/** Fake web pages for the heat pump world, served by startFakeWeb. */
export const researchWebPages = {
  '/ehpa': {
    html: `<html><head><title>European Heat Pump Market Report</title></head><body><article><h1>Market report</h1><p>${heatPumpTexts.ehpa}</p></article></body></html>`,
  },
  '/iea': {
    html: `<html><head><title>The Future of Heat Pumps</title></head><body><article><h1>IEA</h1><p>${heatPumpTexts.iea}</p></article></body></html>`,
  },
};

/**
 * The heat pump world in process, for a runtime without HTTP search or pages: the search finds both
 * pages, the reader serves them under `webUrl` (never resolved, never connected to).
 */
export function researchSearchAndReader(webUrl: string) {
  const search = createFakeSearch({
    'European heat pump sales': [
      { url: `${webUrl}/ehpa`, title: 'EHPA market report', snippet: 'Market data for Europe.' },
      { url: `${webUrl}/iea`, title: 'IEA heat pumps', snippet: 'An outlook for heat pumps.' },
    ],
  });
  const reader = createFakeReader({
    [`${webUrl}/ehpa`]: researchWebPages['/ehpa'].html,
    [`${webUrl}/iea`]: researchWebPages['/iea'].html,
  });
  return { search, reader };
}

/** The fake SearXNG's answers in the heat pump world: its one search finds both pages under `webUrl`. */
export function researchSearxngResults(webUrl: string) {
  return {
    'European heat pump sales': [
      { url: `${webUrl}/ehpa`, title: 'EHPA market report', content: 'Market data for Europe.' },
      { url: `${webUrl}/iea`, title: 'IEA heat pumps', content: 'An outlook for heat pumps.' },
    ],
  };
}

export const researchTopic = 'How did European heat pump sales change after 2022?';

export const researchPlanReply = {
  title: 'European heat pump sales after 2022',
  sections: [{ heading: 'Sales', questions: ['How did heat pump sales in Europe change after 2022?'] }],
  dataPoints: [{ description: 'heat pump sales in 2023', strategy: 'web-search', section: 1 }],
};

/** A second section, Outlook, whose agent calls a test can hold: a run stopped after its first section. */
export const outlookQuestion = 'What is the outlook for heat pumps in Europe?';
export const researchPlanWithOutlook = {
  ...researchPlanReply,
  sections: [...researchPlanReply.sections, { heading: 'Outlook', questions: [outlookQuestion] }],
};
export const isOutlook = (request: FakeOpenAiRequest) => request.prompt.includes(outlookQuestion);

/** What the fake pages say about sales, each sentence on its page, as the librarian quotes it. */
const salesQuotes = [
  { page: '/ehpa', quote: 'Heat pump sales in Europe reached 3 million units in 2022' },
  { page: '/ehpa', quote: 'Sales fell by 5% in 2023' },
  { page: '/iea', quote: 'In 2023 heat pump sales in Europe declined by 7 percent' },
];

/**
 * The librarian over the fake pages: an item about sales is covered by the sales sentences whose
 * page excerpt is in the prompt (those of the years the item names, when it names one); any other
 * item (an outlook) is missing, as the pages give none.
 */
function librarian(request: FakeOpenAiRequest, webUrl: string) {
  const items = /<items>\n([\s\S]*?)\n<\/items>/.exec(request.prompt)?.[1] ?? '';
  const excerpts = /<excerpts>\n([\s\S]*?)\n<\/excerpts>/.exec(request.prompt)?.[1] ?? '';
  const shown = (page: string, quote: string) =>
    excerpts.includes(`url="${webUrl}${page}"`) && excerpts.includes(quote);
  const verdicts = [...items.matchAll(/^(\d+)\. \((?:question|data point)\) (.*)$/gm)].map(
    ([, id, target]) => {
      const years = target!.match(/\b(?:19|20)\d\d\b/g) ?? [];
      const quotes = /sales/i.test(target!)
        ? salesQuotes
            .filter(({ page, quote }) => shown(page, quote) && years.every((year) => quote.includes(year)))
            .map(({ page, quote }) => ({ url: `${webUrl}${page}`, quote }))
        : [];
      return {
        id: Number(id),
        covered: quotes.length > 0,
        quotes,
        value: quotes.length > 0 && years.length > 0 ? quotes.map(({ quote }) => quote).join('; ') : '',
        note: quotes.length > 0 ? 'the market reports give it' : 'no excerpt gives it',
      };
    },
  );
  return reply({ think: 'Checked the excerpts.', items: verdicts });
}

/**
 * Fake-LLM routes for a whole research run over the heat pump world. Every route is a function
 * of the request (what the prompt already holds decides the agent's next action), not a queue:
 * research parts run in parallel, so calls come in no fixed order, and a test may run it twice.
 */
export function researchRoutes(webUrl: string): Record<string, FakeOpenAiRoute> {
  const agent = (request: FakeOpenAiRequest) => {
    if (request.prompt.includes('reached 3 million units'))
      return reply({
        think: 'Both sources read.',
        action: 'answer',
        answer: {
          text: 'Sales reached 3 million units in 2022[^1] and fell in 2023 by 5%[^2] or 7%.[^3]',
          references: [
            { url: `${webUrl}/ehpa`, quote: 'Heat pump sales in Europe reached 3 million units in 2022' },
            { url: `${webUrl}/ehpa`, quote: 'Sales fell by 5% in 2023' },
            { url: `${webUrl}/iea`, quote: 'In 2023 heat pump sales in Europe declined by 7 percent' },
          ],
        },
      });
    if (request.prompt.includes(`${webUrl}/ehpa`))
      return reply({
        think: 'Read both.',
        action: 'visit',
        visit: { targets: [`${webUrl}/ehpa`, `${webUrl}/iea`] },
      });
    return reply({
      think: 'Search first.',
      action: 'search',
      search: { queries: ['European heat pump sales'] },
    });
  };
  return {
    research_plan: () => reply(researchPlanReply),
    agent_action: agent,
    librarian_check: (request) => librarian(request, webUrl),
    query_rewrite: () =>
      reply({
        think: 'fine',
        queries: [{ query: 'European heat pump sales', timeRange: 'none', language: '' }],
      }),
    ...alwaysPassingEvaluation(reply),
    research_section: () =>
      reply({
        markdown:
          'Heat pump sales in Europe reached 3 million units in 2022.[^1] In 2023 they fell.[^2][^3]\n\n| Source | 2023 change |\n|---|---|\n| EHPA | -5%[^2] |\n| IEA | -7%[^3] |',
      }),
    research_coherence: () =>
      reply({
        summary: 'European heat pump sales peaked at 3 million units in 2022[^1] and fell in 2023.[^2]',
        sections: [],
        chart: {
          section: 's1',
          caption: 'Units sold (millions)',
          mermaid: 'xychart-beta\n  x-axis [2022, 2023]\n  bar [3.0, 2.8]',
        },
      }),
    research_contradictions: () =>
      reply({
        contradictions: [
          {
            topic: 'The 2023 decline',
            sides: [
              { claim: 'down 5%', source: 2 },
              { claim: 'down 7%', source: 3 },
            ],
          },
        ],
      }),
    research_claims: () =>
      reply({
        claims: [
          { section: 's1', sentence: 'Heat pump sales in Europe reached 3 million units in 2022.[^1]' },
        ],
      }),
    // Every claim listed (the fact-check adds each cited sentence to the model's list) is supported.
    research_claim_check: (request) =>
      reply({
        verdicts: [...request.prompt.matchAll(/^(\d+)\. /gm)].map((match) => ({
          claim: Number(match[1]),
          supported: true,
        })),
      }),
    research_review: () => reply({ approved: true, feedback: [] }),
    research_follow_ups: () =>
      reply({
        questions: [
          'Which countries drove the 2023 decline?',
          'How did installer capacity change?',
          'What do 2025 figures show?',
        ],
      }),
  };
}
