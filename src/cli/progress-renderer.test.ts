import { describe, expect, it } from 'vitest';
import type { AgentEvent } from '../events/agent-events.js';
import { createProgressRenderer } from './progress-renderer.js';
import { createTerminal } from './terminal-style.js';

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
