import type { FakeRunScript } from '../helpers/fake-runs-api.js';

/** Scripted runs for the web UI tests: what the agent's events look like on the wire. */
const budget = (step: number, tokensUsed: number) => ({
  maxSteps: 8,
  maxTokens: 200_000,
  maxTimeMs: 300_000,
  maxAttempts: 3,
  stepsUsed: step,
  tokensUsed,
  elapsedMs: step * 1000,
  failedAttempts: 0,
  exhausted: null,
  finalAnswerForced: false,
});

export const parisAnswer =
  'Paris is the capital of France.[^1] About 2.1 million people live in the city itself.[^2]';
export const parisQuote = 'Paris is the capital and largest city of France.';

function answerRun(
  answer: string,
  references: Array<Record<string, unknown>>,
  pageTitle: string,
): FakeRunScript {
  const result = {
    runId: 'r',
    question: 'q',
    answer,
    references,
    confidence: 'high',
    confidenceReason: 'Two sources agree.',
    origin: 'evaluated',
    // The run's own time (a resumed run's without the gap before Resume): the page's elapsed.
    durationMs: 83_000,
  };
  return {
    events: [
      { type: 'run-start', question: 'q' },
      { type: 'step-start', step: 1, question: 'q', allowed: ['search'], promptTokens: 900, final: false },
      { type: 'think-delta', step: 1, delta: 'I should look up ' },
      { type: 'think-delta', step: 1, delta: 'the capital.' },
      { type: 'action', step: 1, action: 'search', think: 'I should look up the capital of France.' },
      { type: 'search-start', step: 1, queries: ['capital of France', 'Paris population'] },
      {
        type: 'search-end',
        step: 1,
        queries: ['capital of France', 'Paris population'],
        hits: 12,
        newUrls: 9,
        failures: [],
      },
      { type: 'step-end', step: 1, action: 'search', usage: {}, budget: budget(1, 4_200) },
      { type: 'step-start', step: 2, question: 'q', allowed: ['read'], promptTokens: 1500, final: false },
      { type: 'action', step: 2, action: 'read', think: 'Read the encyclopedia page.' },
      {
        type: 'read-start',
        step: 2,
        urls: ['https://en.example.org/wiki/Paris', 'https://stats.example.net/paris'],
      },
      {
        type: 'read-end',
        step: 2,
        url: 'https://en.example.org/wiki/Paris',
        ok: true,
        title: pageTitle,
        chars: 40_000,
      },
      { type: 'read-end', step: 2, url: 'https://stats.example.net/paris', ok: false, error: 'HTTP 404' },
      { type: 'step-end', step: 2, action: 'read', usage: {}, budget: budget(2, 52_000) },
      { type: 'step-start', step: 3, question: 'q', allowed: ['answer'], promptTokens: 9000, final: false },
      { type: 'answer-draft-delta', step: 3, delta: 'Paris is the capital' },
      { type: 'evaluation', step: 3, criterion: 'definitive', pass: true, reason: 'States it plainly.' },
      { type: 'step-end', step: 3, action: 'answer', usage: {}, budget: budget(3, 61_000) },
      { type: 'run-end', result },
    ],
    result,
  };
}

export const scripts = {
  paris: () =>
    answerRun(
      parisAnswer,
      [
        {
          index: 1,
          url: 'https://en.example.org/wiki/Paris',
          title: 'Paris - Encyclopedia',
          quote: parisQuote,
          quoteKind: 'exact',
        },
        {
          index: 2,
          url: 'https://www.stats.example.net/paris',
          title: 'Population of Paris',
          quote: 'The city proper has 2,102,650 residents.',
          quoteKind: 'sentence',
        },
      ],
      'Paris - Encyclopedia',
    ),
  /** A page whose title, quote and the answer itself carry markup that must never run. */
  hostile: () =>
    answerRun(
      'Hostile text <img src=x onerror="window.__xss = \'answer-img\'"> and <script>window.__xss = "answer-script"</script>' +
        " [a link](javascript:window.__xss='link') stays text.[^1]",
      [
        {
          index: 1,
          url: 'javascript:window.__xss="href"',
          title: '<img src=x onerror="window.__xss=\'title\'">',
          quote: '<script>window.__xss="quote"</script><img src=x onerror="window.__xss=\'quote-img\'">',
          quoteKind: 'exact',
        },
      ],
      '<img src=x onerror="window.__xss=\'read-title\'">',
    ),
  /** Runs until cancelled. */
  hold: (): FakeRunScript => ({
    events: [
      { type: 'run-start', question: 'q' },
      { type: 'step-start', step: 1, question: 'q', allowed: ['search'], promptTokens: 900, final: false },
      { type: 'search-start', step: 1, queries: ['a slow query'] },
      'hold',
    ],
  }),
  research: (body: Record<string, unknown>): FakeRunScript => researchRun(body),
};

/**
 * The script for a request: the question names it ("hold: ...", "hostile: ...", "down: ..." whose
 * LLM is unreachable), research by mode.
 */
export function scriptFor(body: Record<string, unknown>): FakeRunScript {
  const question = String(body.question);
  if (question.startsWith('down')) return llmDown();
  if (body.mode === 'research') return scripts.research(body);
  if (question.startsWith('hold')) return scripts.hold();
  if (question.startsWith('hostile')) return scripts.hostile();
  return scripts.paris();
}

/** The plan the fake planner proposes, and the one a research run follows unless given another. */
export const parisPlan = {
  topic: 'History of Paris',
  title: 'The history of Paris',
  language: 'en',
  sections: [
    { id: 's1', heading: 'Origins', questions: ['How did Paris begin?', 'Who were the Parisii?'] },
    { id: 's2', heading: 'Modern era', questions: ['What is Paris today?'] },
  ],
  dataPoints: [
    { id: 'd1', description: 'population of Paris in 2020', strategy: 'web-search', sectionId: 's2' },
  ],
};

export const parisFollowUps = ['How did the Seine shape the city?', 'When did Paris become the capital?'];

const llmCall = (tokens: number) => ({
  type: 'llm-call',
  step: 1,
  role: 'agent',
  model: 'fake-model',
  promptTokens: tokens - 200,
  completionTokens: 200,
  ms: 40,
  outcome: 'ok',
  estimated: false,
  repairs: 0,
});

type FakeSection = { id: string; heading: string; questions: string[]; items: string[] };

/** One hop of a section: its part's run-start, a search step, its librarian's coverage. */
function hopEvents(section: FakeSection, hop: number, covered: number) {
  const part = { runId: `run_part_${section.id}_${hop}` };
  const query = `${section.heading.toLowerCase()} of Paris${hop > 1 ? ` (hop ${hop})` : ''}`;
  // The librarian judges a section's questions and the facts it needs, as the real one does.
  const { items } = section;
  return {
    start: [
      {
        type: 'research-hop',
        section: section.id,
        hop,
        questions: items,
        limits: { maxTokens: 50_000, maxSteps: 6, maxTimeMs: 60_000 },
      },
      {
        type: 'persona',
        persona: 'search',
        message: `hop ${hop}: searching ${items.length} question(s) of "${section.heading}"`,
        section: section.id,
      },
      {
        ...part,
        type: 'run-start',
        question: `${section.heading} (History of Paris)`,
        parentRunId: 'p',
        part: { purpose: 'section', section: section.id, hop },
      },
      {
        ...part,
        type: 'step-start',
        step: 1,
        question: 'q',
        allowed: ['search'],
        promptTokens: 900,
        final: false,
      },
      {
        ...part,
        type: 'action',
        step: 1,
        action: 'search',
        think: `Search for the ${section.heading.toLowerCase()}.`,
      },
      { ...part, ...llmCall(1100) },
      { ...part, type: 'search-start', step: 1, queries: [query] },
      { ...part, type: 'search-end', step: 1, queries: [query], hits: 6, newUrls: 6, failures: [] },
    ],
    coverage: {
      type: 'coverage',
      section: section.id,
      hop,
      ratio: covered / items.length,
      covered: items.slice(0, covered),
      missing: items.slice(covered),
      evidence: items.slice(0, covered).map((target) => ({
        target,
        url: 'https://history.example.org/paris',
        quote: 'The city began on the Île de la Cité.',
      })),
    },
  };
}

/**
 * A research run over the plan it was given (an edited outline) or the fake planner's: sections
 * interleave, the first needs two hops; each is gathered and written; the report cites one source
 * and ends with follow-up questions. "hold research: ..." stops mid-way, one section in each state.
 */
function researchRun(body: Record<string, unknown>): FakeRunScript {
  const plan = (body.outline as typeof parisPlan | undefined) ?? parisPlan;
  const sections: FakeSection[] = plan.sections.map((section, at) => ({
    ...section,
    id: `s${at + 1}`,
    items: [
      ...section.questions,
      ...(plan.dataPoints ?? [])
        .filter((point) => point.sectionId === section.id)
        .map((point) => point.description),
    ],
  }));
  const [first, ...rest] = sections;
  const hop1 = sections.map((section, at) => hopEvents(section, 1, at === 0 ? 1 : section.items.length));
  const firstAgain = hopEvents(first!, 2, first!.items.length);
  const hold = String(body.question).startsWith('hold');
  // Held mid-way, a third section has not started: it shows queued.
  const queued = hold
    ? [{ id: `s${sections.length + 1}`, heading: 'Food', questions: ['What do Parisians eat?'] }]
    : [];
  const report = {
    title: plan.title,
    markdown: [
      `# ${plan.title}`,
      'Paris grew around the Île de la Cité.[^1]',
      ...sections.map((section) => `## ${section.heading}\n\nIt began on an island.[^1]`),
      `## Follow-up questions\n\n${parisFollowUps.map((question, at) => `${at + 1}. ${question}`).join('\n')}`,
      '[^1]: [A history](https://history.example.org/paris) "The city began on the Île de la Cité."',
    ].join('\n\n'),
    references: [
      {
        index: 1,
        url: 'https://history.example.org/paris',
        title: 'A history',
        quote: 'The city began on the Île de la Cité.',
        quoteKind: 'exact',
      },
    ],
    followUps: parisFollowUps,
    budget: { maxTokens: 400_000, tokensUsed: 23_400, maxTimeMs: 600_000, elapsedMs: 4000, stepsUsed: 6 },
  };
  const gathered = (section: FakeSection) => ({
    type: 'research-section',
    section: section.id,
    state: 'gathered',
    covered: section.items.length,
    total: section.items.length,
    hops: section === first ? 2 : 1,
    stopped: 'covered',
    sources: 1,
  });
  const events: FakeRunScript['events'] = [
    { type: 'run-start', question: 'q' },
    { type: 'persona', persona: 'strategist', message: `Planning ${sections.length} sections.` },
    {
      type: 'research-plan',
      plan: { ...plan, sections: [...sections, ...queued] },
      estimate: { tokens: 100_000, timeMs: 60_000, llmCalls: 20 },
    },
    ...hop1.flatMap((hop) => hop.start),
    ...hop1.map((hop) => hop.coverage),
    ...rest.map(gathered),
    ...firstAgain.start,
  ];
  if (hold) return { events: [...events, 'hold'] };
  events.push(
    firstAgain.coverage,
    gathered(first!),
    ...sections.map((section) => ({
      type: 'research-section',
      section: section.id,
      state: 'written',
      sources: 1,
    })),
    { type: 'persona', persona: 'synthesizer', message: 'The review approved the draft.' },
    { type: 'fact-check', claims: 6, supported: 5, revised: 1, removed: 0 },
    { type: 'research-end', report },
  );
  return { events, result: report };
}

/** A run whose LLM server cannot be reached: it fails at its first call, as the real server says it. */
function llmDown(): FakeRunScript {
  return {
    events: [
      { type: 'run-start', question: 'q' },
      { type: 'step-start', step: 1, question: 'q', allowed: ['search'], promptTokens: 900, final: false },
      { type: 'answer-draft-delta', step: 1, delta: 'A draft that never became an answer' },
    ],
    status: 'failed',
    error: {
      message: 'the LLM server (openai-compatible) could not be reached: connection refused (ECONNREFUSED)',
      type: 'upstream_error',
      code: 'provider_unreachable',
    },
  };
}
