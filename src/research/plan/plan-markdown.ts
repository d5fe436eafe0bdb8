import { InputError } from '../../core/errors/index.js';
import type {
  DataPoint,
  DataPointStrategy,
  PlanSection,
  ResearchPlan,
} from '../../events/research-result.js';

const strategies: readonly DataPointStrategy[] = ['ask-llm', 'entity-overview', 'web-search'];
export const maxSections = 12;
export const maxQuestions = 8;

const help = `<!--
Research outline. Edit it, then run: deepsearch research --outline THIS_FILE
- "# " is the report title; "Topic:" is what is researched; "Language:" the report's language.
- Each "## " heading is a section; each "- " line under it is a research question.
- "- Data point (STRATEGY): ..." is a fact the report needs; STRATEGY is ${strategies.join(', ')}.
-->`;

/** The plan as markdown a person can edit (`--outline-only`); `parsePlanMarkdown` reads it back. */
export function renderPlanMarkdown(plan: ResearchPlan): string {
  const lines = [help, '', `# ${oneLine(plan.title)}`, '', `Topic: ${oneLine(plan.topic)}`];
  if (plan.language) lines.push(`Language: ${plan.language}`);
  if (plan.coreEntity) lines.push(`Core entity: ${oneLine(plan.coreEntity)}`);
  if (plan.targetAttributes?.length)
    lines.push(`Target attributes: ${plan.targetAttributes.map(oneLine).join('; ')}`);
  for (const section of plan.sections) {
    lines.push('', `## ${oneLine(section.heading)}`, '');
    for (const question of section.questions) lines.push(`- ${oneLine(question)}`);
    for (const point of plan.dataPoints.filter((item) => item.sectionId === section.id))
      lines.push(`- Data point (${point.strategy}): ${oneLine(point.description)}`);
  }
  return `${lines.join('\n')}\n`;
}

/**
 * Reads an outline written by `renderPlanMarkdown` and edited by a person. Errors name the file
 * and line and say what to write instead; ids are given again in order (s1.., d1..).
 */
export function parsePlanMarkdown(
  markdown: string,
  options: { file?: string; topic?: string } = {},
): ResearchPlan {
  const where = (line: number) => `${options.file ?? 'outline'} line ${line}`;
  const fail = (line: number, message: string) =>
    new InputError(`${where(line)}: ${message}`, { param: 'outline' });
  let title: string | undefined;
  let topic: string | undefined;
  let language: string | undefined;
  let coreEntity: string | undefined;
  let targetAttributes: string[] | undefined;
  const sections: Array<PlanSection & { line: number }> = [];
  const dataPoints: DataPoint[] = [];
  const lines = stripComments(markdown).split('\n');
  for (const [at, raw] of lines.entries()) {
    const line = classify(raw.trim());
    const number = at + 1;
    const section = sections.at(-1);
    switch (line.kind) {
      case 'blank':
        continue;
      case 'title':
        if (title !== undefined) throw fail(number, 'a second "# " title; sections start with "## "');
        title = line.text;
        continue;
      case 'section':
        if (sections.length >= maxSections)
          throw fail(number, `more than ${maxSections} sections; merge some`);
        sections.push({ id: `s${sections.length + 1}`, heading: line.text, questions: [], line: number });
        continue;
      case 'subheading':
        throw fail(
          number,
          'only "# " (title) and "## " (section) headings are allowed; make it a "- " question',
        );
      case 'data-point': {
        if (!section) throw fail(number, 'a data point before any "## " section; move it under its section');
        const strategy = (line.strategy ?? 'web-search').toLowerCase() as DataPointStrategy;
        if (!strategies.includes(strategy))
          throw fail(number, `unknown strategy "${line.strategy}" (use one of: ${strategies.join(', ')})`);
        if (!line.text) throw fail(number, 'a data point needs a description after the colon');
        dataPoints.push({
          id: `d${dataPoints.length + 1}`,
          description: line.text,
          strategy,
          sectionId: section.id,
        });
        continue;
      }
      case 'question':
        if (!section)
          throw fail(number, 'a question before any "## " section; put it under a section heading');
        if (section.questions.length >= maxQuestions)
          throw fail(
            number,
            `more than ${maxQuestions} questions in "${section.heading}"; split the section`,
          );
        section.questions.push(line.text);
        continue;
      case 'field': {
        if (section) throw fail(number, `"${line.key}:" belongs before the first "## " section`);
        const key = line.key.toLowerCase();
        if (key === 'topic') topic = line.text;
        else if (key === 'language') language = line.text || undefined;
        else if (key === 'core entity') coreEntity = line.text || undefined;
        else
          targetAttributes = line.text
            .split(';')
            .map((item) => item.trim())
            .filter(Boolean);
        continue;
      }
      default:
        throw fail(
          number,
          `unexpected text "${clip(line.text)}"; a question starts with "- ", a section with "## "`,
        );
    }
  }
  if (title === undefined) throw fail(1, 'no title; the outline starts with "# Report title"');
  if (sections.length === 0)
    throw fail(lines.length, 'no sections; add at least one "## Section" with "- question" lines');
  for (const section of sections)
    if (section.questions.length === 0)
      throw fail(section.line, `section "${section.heading}" has no question; add a line starting with "- "`);
  const finalTopic = topic || options.topic;
  if (!finalTopic) throw fail(1, 'no topic; add a line "Topic: what to research" under the title');
  return {
    topic: finalTopic!,
    title: title!,
    language,
    sections: sections.map(({ line: _line, ...section }) => section),
    dataPoints,
    ...(coreEntity ? { coreEntity } : {}),
    ...(targetAttributes?.length ? { targetAttributes } : {}),
  };
}

type Line =
  | { kind: 'blank' }
  | { kind: 'title' | 'section' | 'subheading' | 'question' | 'other'; text: string }
  | { kind: 'data-point'; strategy: string | undefined; text: string }
  | { kind: 'field'; key: string; text: string };

function classify(line: string): Line {
  if (!line) return { kind: 'blank' };
  const heading = /^(#+)\s+(.+)$/.exec(line);
  if (heading) {
    const level = heading[1]!.length;
    return { kind: level === 1 ? 'title' : level === 2 ? 'section' : 'subheading', text: heading[2]!.trim() };
  }
  const dataPoint = /^[-*+]\s+data point\s*(?:\(([^)]*)\))?\s*:\s*(.*)$/i.exec(line);
  if (dataPoint) return { kind: 'data-point', strategy: dataPoint[1]?.trim(), text: dataPoint[2]!.trim() };
  const item = /^(?:[-*+]|\d+[.)])\s+(.+)$/.exec(line);
  if (item) return { kind: 'question', text: item[1]!.trim() };
  const field = /^(topic|language|core entity|target attributes)\s*:\s*(.*)$/i.exec(line);
  if (field) return { kind: 'field', key: field[1]!, text: field[2]!.trim() };
  return { kind: 'other', text: line };
}

/** Comments become blank lines, so line numbers stay those of the file. */
function stripComments(markdown: string): string {
  return markdown
    .replace(/\r\n?/g, '\n')
    .replace(/<!--[\s\S]*?-->/g, (comment) => comment.replace(/[^\n]/g, ''));
}

function oneLine(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

function clip(text: string): string {
  return text.length > 60 ? `${text.slice(0, 57)}...` : text;
}
