// The dev sets of bench:snippets, each question as { question, answers, page, blocks, half }, and the
// simple baselines every selection is compared with. Each set is split once, by a fixed rule, into a
// tuning half (failures may be studied there) and a held-out half (only its numbers are read).
import { existsSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { Bm25Index } from '../dist/retrieval/bm25.js';
import { evalRoot } from './eval-root.mjs';

/** Lower-cased, spaces collapsed: containment ignores case and line breaks. */
export const fold = (text) => text.toLowerCase().replace(/\s+/g, ' ');
export const containsAny = (selection, answers) => {
  const folded = fold(selection);
  return answers.some((answer) => answer.trim() && folded.includes(fold(answer).trim()));
};

/**
 * L-Eval NQ: 21 long Wikipedia pages, one line of HTML-like text each (no blank lines). Tuning half:
 * questions on even-indexed pages. Caveat: an earlier round (citation lists, role cue, place words)
 * was made from misses on all pages, so the odd half is held out only since then.
 */
function naturalQuestions() {
  const path = resolve(evalRoot, 'snippets/leval-natural-questions.jsonl');
  if (!existsSync(path)) return undefined;
  const documents = readFileSync(path, 'utf8')
    .split('\n')
    .filter((line) => line.trim())
    .map((line) => JSON.parse(line));
  return documents.flatMap((document, pageIndex) => {
    const blocks = htmlBlocks(document.input);
    return document.instructions.flatMap((question, index) => {
      const answer = document.outputs[index];
      if (!answer?.trim()) return [];
      const half = pageIndex % 2 === 0 ? 'tune' : 'held-out';
      return [{ question, answers: [answer], page: document.input, blocks, half }];
    });
  });
}

// The pages' own block tags: a paragraph, a heading, a table row or a list item is one block.
function htmlBlocks(page) {
  return page.split(/(?=<(?:P|H[1-6]|Tr|Li|Dd|Dt)>)/).filter((block) => block.trim());
}

/**
 * The same pages as a reader's markdown would give them: tags dropped, one blank-line separated
 * paragraph per block, headings as `## ` lines. One article per page, sections of several
 * paragraphs: the shape the multi-hop path must not take over from windows.
 */
function naturalQuestionsAsParagraphs(items) {
  const converted = new Map();
  return items.map((item) => {
    let page = converted.get(item.page);
    if (!page) {
      page = item.page
        .replace(/<H[1-6]>/g, '\n## ')
        .replace(/<\/H[1-6]>/g, '\n')
        .replace(/<(?:P|Tr|Li|Dd|Dt|Table|Ul|Ol|Dl)[^>]*>/g, '\n')
        .replace(/<[^>]+>/g, ' ')
        .split('\n')
        .map((line) => line.replace(/\s+/g, ' ').trim())
        .filter(Boolean)
        .join('\n\n');
      converted.set(item.page, page);
    }
    return { ...item, page, blocks: page.split('\n\n') };
  });
}

/**
 * HotpotQA distractor: the ten context paragraphs in the given order as `## Title` + sentences.
 * Yes/no answers are left out (never in the text). Tuning half: questions 1–50 (as in bench:kb).
 */
function hotpotQa() {
  const path = resolve(evalRoot, 'qa/hotpotqa-dev-distractor-first100.json');
  if (!existsSync(path)) return undefined;
  const items = JSON.parse(readFileSync(path, 'utf8'));
  return items.flatMap((item, index) => {
    if (['yes', 'no'].includes(item.answer.toLowerCase())) return [];
    const blocks = item.context.title.map(
      (title, at) => `## ${title}\n${item.context.sentences[at].join('')}\n\n`,
    );
    const half = index < 50 ? 'tune' : 'held-out';
    return [{ question: item.question, answers: [item.answer], page: blocks.join(''), blocks, half }];
  });
}

/**
 * MuSiQue-Ans: the 20 paragraphs in the given order as `## Title` + paragraph; the answer or one of
 * its aliases must be in the selection. The file lists 2-hop questions first, so the halves
 * alternate (even lines tune, odd lines held out) to keep the 2/3/4-hop mix alike in both.
 */
function musique() {
  const path = resolve(evalRoot, 'qa/musique-dev-200.jsonl');
  if (!existsSync(path)) return undefined;
  return readFileSync(path, 'utf8')
    .split('\n')
    .filter((line) => line.trim())
    .map((line, index) => {
      const item = JSON.parse(line);
      const blocks = item.paragraphs.map(
        (paragraph) => `## ${paragraph.title}\n${paragraph.paragraph_text}\n\n`,
      );
      return {
        question: item.question,
        answers: [item.answer, ...(item.answer_aliases ?? [])],
        page: blocks.join(''),
        blocks,
        half: index % 2 === 0 ? 'tune' : 'held-out',
      };
    });
}

export function loadSets() {
  const nq = naturalQuestions();
  const sets = [
    ['NQ (L-Eval)', nq],
    ['NQ as paragraphs', nq && naturalQuestionsAsParagraphs(nq)],
    ['HotpotQA', hotpotQa()],
    ['MuSiQue', musique()],
  ];
  const missing = sets.filter(([, items]) => !items).map(([name]) => name);
  if (missing.length > 0)
    console.error(`no data for ${missing.join(', ')} under ${evalRoot} (set DEEPSEARCH_EVAL_DIR)`);
  if (missing.length === sets.length) process.exit(2);
  return sets.filter(([, items]) => items);
}

/**
 * Whole blocks ranked by plain BM25 against the question, best first while they fit (ties, blocks
 * that match nothing included, in page order).
 */
export function bm25Blocks(question, blocks, budget) {
  const scores = new Bm25Index(blocks).score(question);
  const order = blocks.map((_, index) => index).sort((a, b) => scores[b] - scores[a] || a - b);
  const kept = [];
  let used = 0;
  for (const index of order) {
    if (used + blocks[index].length > budget) continue;
    kept.push(blocks[index]);
    used += blocks[index].length;
  }
  return kept;
}
