import { describe, expect, it } from 'vitest';
import { InputError } from '../../core/errors/index.js';
import type { ResearchPlan } from '../../events/research-result.js';
import { parsePlanMarkdown, renderPlanMarkdown } from './plan-markdown.js';

const plan: ResearchPlan = {
  topic: 'How did European heat pump adoption change between 2019 and 2024, and why?',
  title: 'Heat pumps in Europe, 2019–2024',
  language: 'English',
  sections: [
    {
      id: 's1',
      heading: 'Sales by country',
      questions: ['How many heat pumps were sold in 2019?', 'And in 2024?'],
    },
    { id: 's2', heading: 'Why adoption changed', questions: ['Which subsidies mattered?'] },
  ],
  dataPoints: [
    { id: 'd1', description: 'EU heat pump sales in 2022 (units)', strategy: 'web-search', sectionId: 's1' },
    { id: 'd2', description: 'Germany GEG law year', strategy: 'ask-llm', sectionId: 's2' },
  ],
  coreEntity: 'heat pumps',
  targetAttributes: ['sales', 'subsidies'],
};

function parseError(markdown: string): string {
  try {
    parsePlanMarkdown(markdown, { file: 'outline.md' });
  } catch (error) {
    expect(error).toBeInstanceOf(InputError);
    return (error as Error).message;
  }
  throw new Error('expected the outline to be refused');
}

describe('plan markdown', () => {
  it('round-trips a plan', () => {
    const markdown = renderPlanMarkdown(plan);
    expect(markdown).toContain('## Sales by country\n\n- How many heat pumps were sold in 2019?');
    expect(markdown).toContain('- Data point (ask-llm): Germany GEG law year');
    expect(parsePlanMarkdown(markdown)).toEqual(plan);
    expect(renderPlanMarkdown(parsePlanMarkdown(markdown))).toBe(markdown);
  });

  it('reads an outline a person edited: new section, numbered questions, no data points, topic from the command', () => {
    const edited = `# My title\n\n## First\n1. one?\n2) two?\n\n## Second\n* three?\n- data point: a figure\n`;
    const parsed = parsePlanMarkdown(edited, { topic: 'the topic' });
    expect(parsed.topic).toBe('the topic');
    expect(parsed.language).toBeUndefined();
    expect(parsed.sections).toEqual([
      { id: 's1', heading: 'First', questions: ['one?', 'two?'] },
      { id: 's2', heading: 'Second', questions: ['three?'] },
    ]);
    expect(parsed.dataPoints).toEqual([
      { id: 'd1', description: 'a figure', strategy: 'web-search', sectionId: 's2' },
    ]);
  });

  it('says which line is wrong and what to write instead', () => {
    expect(parseError('Topic: t\n## Only a section\n- q?\n')).toBe(
      'outline.md line 1: no title; the outline starts with "# Report title"',
    );
    expect(parseError('# T\nTopic: t\n\n## Empty\n\n## Full\n- q?\n')).toBe(
      'outline.md line 4: section "Empty" has no question; add a line starting with "- "',
    );
    expect(parseError('# T\nTopic: t\n## S\n- q?\n- Data point (guess): x\n')).toMatch(
      /^outline\.md line 5: unknown strategy "guess" \(use one of: ask-llm, entity-overview, web-search\)$/,
    );
    expect(parseError('<!--\ncomment\n-->\n# T\nTopic: t\n## S\nsome prose\n')).toBe(
      'outline.md line 7: unexpected text "some prose"; a question starts with "- ", a section with "## "',
    );
    expect(parseError('# T\n- q?\n')).toMatch(/^outline\.md line 2: a question before any "## " section/);
    expect(parseError('# T\n## S\n- q?\n')).toMatch(/line 1: no topic/);
    expect(parseError('# T\nTopic: t\n')).toMatch(/line 3: no sections/);
    expect(parseError('# T\nTopic: t\n## S\n- q?\n# Again\n')).toMatch(/line 5: a second "# " title/);
  });
});
