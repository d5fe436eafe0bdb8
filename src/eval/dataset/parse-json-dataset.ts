import * as z from 'zod';
import { InputError } from '../../core/errors/index.js';
import type { ContextParagraph, EvalQuestion } from '../eval-types.js';

const text = z.union([z.string(), z.number(), z.boolean()]).transform((value) => String(value).trim());

/**
 * HotpotQA in its two published layouts: the original JSON (`_id`, `supporting_facts: [[title,
 * sent]]`, `context: [[title, [sentences]]]`) and the Hugging Face export (`id`, `supporting_facts:
 * {title[], sent_id[]}`, `context: {title[], sentences[][]}`).
 */
const hotpotItem = z.object({
  _id: z.string().optional(),
  id: z.string().optional(),
  question: text,
  answer: text,
  supporting_facts: z
    .union([
      z.array(z.tuple([z.string(), z.number()]).rest(z.unknown())),
      z.object({ title: z.array(z.string()) }).loose(),
    ])
    .optional(),
  context: z.union([
    z.array(z.tuple([z.string(), z.array(z.string())])),
    z.object({ title: z.array(z.string()), sentences: z.array(z.array(z.string())) }),
  ]),
});

const browseCompLine = z.object({ query_id: text, query: text, answer: text });
const plainLine = z.object({ id: text.optional(), question: text, answer: text });

export function parseHotpotQa(content: string, file: string): EvalQuestion[] {
  const items = parseJson(content, file);
  if (!Array.isArray(items)) throw new InputError(`${file}: HotpotQA is a JSON list of questions`);
  return items.map((item, index) => {
    const parsed = hotpotItem.safeParse(item);
    if (!parsed.success) throw invalidItem(file, `item ${index}`, parsed.error, 'question, answer, context');
    const value = parsed.data;
    return {
      id: value._id ?? value.id ?? String(index),
      question: value.question,
      answer: value.answer,
      context: contextParagraphs(value.context),
      supportingTitles: supportingTitles(value.supporting_facts),
    };
  });
}

/** BrowseComp-Plus (`query_id, query, answer`, plus its document lists) or plain `question, answer` lines. */
export function parseJsonLines(
  content: string,
  options: { format: 'browsecomp-plus' | 'jsonl'; file: string },
): EvalQuestion[] {
  const questions: EvalQuestion[] = [];
  const lines = content.split(/\r?\n/);
  lines.forEach((line, index) => {
    if (!line.trim()) return;
    const where = `line ${index + 1}`;
    const value = parseJson(line, `${options.file} ${where}`);
    if (options.format === 'browsecomp-plus') {
      const parsed = browseCompLine.safeParse(value);
      if (!parsed.success) throw invalidItem(options.file, where, parsed.error, 'query_id, query, answer');
      questions.push({ id: parsed.data.query_id, question: parsed.data.query, answer: parsed.data.answer });
    } else {
      const parsed = plainLine.safeParse(value);
      if (!parsed.success) throw invalidItem(options.file, where, parsed.error, 'question, answer');
      questions.push({
        id: parsed.data.id || String(questions.length),
        question: parsed.data.question,
        answer: parsed.data.answer,
      });
    }
  });
  return questions;
}

function contextParagraphs(context: z.infer<typeof hotpotItem>['context']): ContextParagraph[] {
  if (Array.isArray(context))
    return context.map(([title, sentences]) => ({ title, text: sentences.join('') }));
  return context.title.map((title, index) => ({ title, text: (context.sentences[index] ?? []).join('') }));
}

function supportingTitles(facts: z.infer<typeof hotpotItem>['supporting_facts']): string[] {
  if (!facts) return [];
  const titles = Array.isArray(facts) ? facts.map((fact) => fact[0]) : facts.title;
  return [...new Set(titles)];
}

function parseJson(content: string, where: string): unknown {
  try {
    return JSON.parse(content);
  } catch (error) {
    throw new InputError(`${where} is not valid JSON: ${(error as Error).message}`, { cause: error });
  }
}

function invalidItem(file: string, where: string, error: z.ZodError, needs: string): InputError {
  const issue = error.issues[0];
  const path = issue?.path.length ? ` at ${issue.path.join('.')}` : '';
  return new InputError(`${file} ${where}: needs ${needs} (${issue?.message ?? 'invalid'}${path})`);
}
