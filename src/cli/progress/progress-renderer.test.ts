import { describe, expect, it } from 'vitest';
import type { AgentEvent } from '../../events/agent-events.js';
import { createTerminal } from '../io/terminal-style.js';
import { createProgressRenderer } from './progress-renderer.js';

function capture(debug: boolean) {
  const lines: string[] = [];
  const terminal = createTerminal({ write: (text: string) => lines.push(text.trimEnd()), columns: 160 }, {});
  return { lines, render: createProgressRenderer(terminal, { debug }) };
}

const envelope = { runId: 'run-1', seq: 1, at: 0 };

const ranking: AgentEvent = {
  ...envelope,
  type: 'url-ranking',
  step: 3,
  question: 'who won',
  reranker: 'built-in BM25',
  candidates: 42,
  urls: [
    {
      url: 'https://en.wikipedia.org/wiki/A',
      weight: 0.61,
      reasons: {
        frequency: 0.5,
        host: 0,
        path: 0.2,
        relevance: 1,
        freshness: 0,
        boost: 0,
        trust: 0,
        penalty: 0,
      },
    },
  ],
};

const plan: AgentEvent = {
  ...envelope,
  type: 'search-plan',
  step: 2,
  proposed: ['a b', 'A  b!'],
  duplicates: [{ query: 'A b!', of: 'a b', similarity: 1 }],
  rewritten: [{ query: 'a b 2026', timeRange: 'year', language: 'fr' }],
  embedding: 'built-in lexical',
};

describe('progress renderer, retrieval events', () => {
  it('shows URL weights with their reasons and query dedup/rewrites under --debug', () => {
    const { lines, render } = capture(true);
    render(ranking);
    render(plan);
    expect(lines).toEqual([
      '    · [3] 42 URLs ranked by built-in BM25 for "who won"',
      '      0.61 https://en.wikipedia.org/wiki/A (frequency 0.50, path 0.20, relevance 1.00)',
      '    · dropped "A b!": repeats "a b" (cosine 1.00, built-in lexical)',
      '    · rewritten: "a b 2026" (time year, lang fr)',
    ]);
  });

  it('shows none of it without --debug', () => {
    const { lines, render } = capture(false);
    render(ranking);
    render(plan);
    expect(lines).toEqual([]);
  });
});

describe('progress renderer, coding events', () => {
  const code = Array.from({ length: 15 }, (_, index) => `const v${index} = ${index};`).join('\n');
  const coding: AgentEvent = {
    ...envelope,
    type: 'coding',
    step: 4,
    purpose: 'Sum of the table',
    code,
    ok: true,
    output: '{"total":28.1}',
    logs: [],
    ms: 3,
  };

  it('shows the purpose, the first lines of code and the result', () => {
    const { lines, render } = capture(false);
    render(coding);
    const text = lines.join('\n');
    expect(text).toContain('↳ code: Sum of the table');
    expect(text).toContain('const v0 = 0;');
    expect(text).toContain('const v11 = 11;');
    expect(text).not.toContain('const v12 = 12;');
    expect(text).toContain('… 3 more lines');
    expect(text).toContain('result: {"total":28.1} (3 ms)');
  });

  it('leaves a failure to the warning that follows it', () => {
    const { lines, render } = capture(false);
    render({ ...coding, ok: false, output: undefined, error: { kind: 'timeout', message: 'too long' } });
    expect(lines.join('\n')).not.toContain('result:');
  });
});

describe('progress renderer, research parts', () => {
  const part = (runId: string, section: string, purpose: 'section' | 'verification' = 'section') =>
    ({
      runId,
      seq: 1,
      at: 0,
      type: 'run-start',
      question: `about ${section}`,
      language: undefined,
      parentRunId: 'task',
      part: { purpose, section, ...(purpose === 'section' ? { hop: 1 } : {}) },
    }) as AgentEvent;
  const step = (runId: string, number: number): AgentEvent[] => [
    {
      runId,
      seq: 2,
      at: 0,
      type: 'step-start',
      step: number,
      question: 'q',
      allowed: ['search'],
      promptTokens: 1200,
      final: false,
    },
    { runId, seq: 3, at: 0, type: 'action', step: number, action: 'search', think: 'look it up' },
    {
      runId,
      seq: 4,
      at: 0,
      type: 'search-end',
      step: number,
      queries: [`q ${runId}`],
      hits: 5,
      newUrls: 4,
      failures: [],
    },
  ];

  it('names the section on every line of its deep search, however the sections interleave', () => {
    const { lines, render } = capture(false);
    for (const event of [part('a', 's1'), part('b', 's2'), part('c', 's1', 'verification')]) render(event);
    const [a, b, c] = [step('a', 1), step('b', 1), step('c', 2)];
    // Both sections' step starts come before either action: each keeps its own prompt size.
    for (const event of [a[0]!, b[0]!, a[1]!, b[1]!, b[2]!, a[2]!, ...c]) render(event);
    render({ runId: 'task', seq: 9, at: 0, type: 'warning', step: 0, message: 'the task itself' });
    expect(lines).toEqual([
      '[s1·1] search (1.2k prompt tokens) look it up',
      '[s2·1] search (1.2k prompt tokens) look it up',
      '  s2 ↳ "q b" → 5 results, 4 new URLs',
      '  s1 ↳ "q a" → 5 results, 4 new URLs',
      '[check s1·2] search (1.2k prompt tokens) look it up',
      'check s1 ↳ "q c" → 5 results, 4 new URLs',
      '    ! the task itself',
    ]);
  });
});

describe("a research section's step labels", () => {
  it('never repeat across its hops: [s1·1] in hop 1, [s1·h2·1] in hop 2', () => {
    const { lines, render } = capture(false);
    for (const [runId, hop] of [
      ['hop-1', 1],
      ['hop-2', 2],
    ] as const) {
      const at = { runId, seq: 1, at: 0 };
      render({
        ...at,
        type: 'run-start',
        question: 'q',
        language: undefined,
        part: { purpose: 'section', section: 's1', hop },
      });
      render({ ...at, type: 'action', step: 1, action: 'search', think: 'Search first.' } as AgentEvent);
    }
    const labels = lines.filter((line) => line.startsWith('[')).map((line) => line.split(' ')[0]);
    expect(labels).toEqual(['[s1·1]', '[s1·h2·1]']);
  });
});
