import { describe, expect, it } from 'vitest';
import type { Page } from '../../providers/spec/page-reader.js';
import { AgentState } from '../state/agent-state.js';
import { buildCodingInput } from './coding-input.js';

function page(url: string, markdown: string, text = markdown): Page {
  return {
    requestedUrl: url,
    url,
    contentType: 'text/html',
    title: url,
    text,
    markdown,
    links: [],
  } as unknown as Page;
}

const table = `| Year | Sales |\n| --- | --- |\n${Array.from({ length: 40 }, (_, i) => `| ${2000 + i} | ${i * 10} |`).join('\n')}`;

describe('buildCodingInput', () => {
  it('gives the question, answered sub-questions and each page with its tables whole', () => {
    const state = new AgentState('Original?');
    state.knowledge.push({
      type: 'qa',
      question: 'Sub?',
      answer: 'Forty',
      urls: ['https://b.example/'],
      step: 2,
    });
    state.knowledge.push({ type: 'chat-history', question: 'Earlier?', answer: 'x', urls: [], step: 0 });
    state.pages.add(page('https://a.example/', `Sales by year.\n\n${table}\n\nMore prose.`), 1);
    const { input, urls } = buildCodingInput(state, 'Total sales?', 60_000);
    expect(input.question).toBe('Total sales?');
    expect(input.originalQuestion).toBe('Original?');
    expect(input.knowledge).toEqual([{ question: 'Sub?', answer: 'Forty', urls: ['https://b.example/'] }]);
    expect(input.pages).toHaveLength(1);
    expect(input.pages[0]!.tables).toEqual([table]);
    expect(input.pages[0]!.text).toContain('Sales by year.');
    expect(urls).toEqual(['https://a.example/']);
  });

  it('stays within the size limit, cutting tables at a row boundary', () => {
    const state = new AgentState('Q');
    const prose = 'Lorem ipsum dolor sit amet, "quoted" text.\n'.repeat(400);
    for (let index = 0; index < 6; index++)
      state.pages.add(page(`https://p${index}.example/`, `${table}\n\n${prose}`), index);
    const { input } = buildCodingInput(state, 'Q', 3000);
    expect(JSON.stringify(input).length).toBeLessThanOrEqual(3000);
    for (const entry of input.pages) {
      for (const kept of entry.tables) expect(table.startsWith(kept)).toBe(true);
    }
    expect(input.pages[0]!.url).toBe('https://p5.example/');
  });
});
