// The dev sets of bench:snippets, each question as { question, answers, page, blocks, half }, and the
// simple baselines every selection is compared with. Each multi-hop set (and NQ's pages as
// paragraphs) comes in four page shapes: the same paragraphs under `## Title` headings, under a plain
// title line, without titles, and one sentence per line (title line first, no blank lines). Each set
// is split once by a hash of the question's id into a tuning half (failures may be studied there) and
// a held-out half (only its numbers are read).
import { existsSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { Bm25Index } from '../dist/retrieval/bm25.js';
import { evalRoot } from './eval-root.mjs';

export const shapes = ['markdown headings', 'plain title lines', 'no titles', 'sentence lines'];

/** Lower-cased, spaces collapsed: containment ignores case and line breaks. */
export const fold = (text) => text.toLowerCase().replace(/\s+/g, ' ');
export const containsAny = (selection, answers) => {
  const folded = fold(selection);
  return answers.some((answer) => answer.trim() && folded.includes(fold(answer).trim()));
};

/** Tuning or held-out, by the parity of the FNV-1a hash of the question's id. */
export function halfOf(id) {
  let hash = 0x811c9dc5;
  for (let index = 0; index < id.length; index++) {
    hash ^= id.charCodeAt(index);
    hash = Math.imul(hash, 0x01000193);
  }
  return (hash >>> 0) % 2 === 0 ? 'tune' : 'held-out';
}

// A paragraph's sentences: HotpotQA gives them; MuSiQue's and NQ's are cut at . ! ? before a capital.
const sentencesOf = (text) => text.split(/(?<=[.!?]["”')]?)\s+(?=["“(]?\p{Lu})/u).filter((s) => s.trim());

/**
 * One page of titled paragraphs ({ title, sentences } each; title may be empty) in the given shape:
 * the page and its blocks (the units the BM25 baseline ranks: a paragraph with its title).
 */
export function renderShape(paragraphs, shape) {
  const blocks = paragraphs.map(({ title, sentences }) => {
    const body = sentences.join(shape === 'sentence lines' ? '\n' : ' ').trim();
    if (shape === 'markdown headings') return title ? `## ${title}\n${body}\n\n` : `${body}\n\n`;
    if (shape === 'plain title lines') return title ? `${title}\n${body}\n\n` : `${body}\n\n`;
    if (shape === 'no titles') return `${body}\n\n`;
    return title ? `${title}\n${body}\n` : `${body}\n`;
  });
  return { page: blocks.join(''), blocks };
}

/**
 * L-Eval NQ: 21 long Wikipedia pages, one line of HTML-like text each (no blank lines).
 * Caveat: earlier rounds (citation lists, role cue, place words) were made from misses on all pages.
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
      const half = halfOf(`nq-${pageIndex}-${index}`);
      return [{ question, answers: [answer], page: document.input, blocks, half, source: document.input }];
    });
  });
}

// The pages' own block tags: a paragraph, a heading, a table row or a list item is one block.
function htmlBlocks(page) {
  return page.split(/(?=<(?:P|H[1-6]|Tr|Li|Dd|Dt)>)/).filter((block) => block.trim());
}

/**
 * The same pages as a reader would give them: tags dropped, each block one paragraph; a heading's
 * text is the title of the paragraphs under it up to the next heading (the first gets it, as a
 * `## ` line, a plain line or nothing).
 */
function nqParagraphs(html) {
  const lines = html
    .replace(/<H[1-6]>/g, '\n\u0001')
    .replace(/<\/H[1-6]>/g, '\n')
    .replace(/<(?:P|Tr|Li|Dd|Dt|Table|Ul|Ol|Dl)[^>]*>/g, '\n')
    .replace(/<[^>]+>/g, ' ')
    .split('\n')
    .map((line) => line.replace(/\s+/g, ' ').trim())
    .filter((line) => line && line !== '\u0001');
  const paragraphs = [];
  let title = '';
  for (const line of lines) {
    if (line.startsWith('\u0001')) {
      if (title) paragraphs.push({ title, sentences: [] });
      title = line.slice(1).trim();
      continue;
    }
    paragraphs.push({ title, sentences: sentencesOf(line) });
    title = '';
  }
  if (title) paragraphs.push({ title, sentences: [] });
  return paragraphs;
}

function naturalQuestionsShaped(items, shape) {
  const converted = new Map();
  return items.map((item) => {
    let shaped = converted.get(item.source);
    if (!shaped) {
      shaped = renderShape(nqParagraphs(item.source), shape);
      converted.set(item.source, shaped);
    }
    return { ...item, ...shaped };
  });
}

/** HotpotQA distractor: the ten context paragraphs in the given order. Yes/no answers left out. */
function hotpotQa() {
  const path = resolve(evalRoot, 'qa/hotpotqa-dev-distractor-first100.json');
  if (!existsSync(path)) return undefined;
  const items = JSON.parse(readFileSync(path, 'utf8'));
  return items.flatMap((item) => {
    if (['yes', 'no'].includes(item.answer.toLowerCase())) return [];
    const paragraphs = item.context.title.map((title, at) => ({
      title,
      sentences: item.context.sentences[at].map((sentence) => sentence.trim()).filter(Boolean),
    }));
    return [{ question: item.question, answers: [item.answer], paragraphs, half: halfOf(item.question) }];
  });
}

/** MuSiQue-Ans: the 20 paragraphs in the given order; the answer or one of its aliases must be kept. */
function musique() {
  const path = resolve(evalRoot, 'qa/musique-dev-200.jsonl');
  if (!existsSync(path)) return undefined;
  return readFileSync(path, 'utf8')
    .split('\n')
    .filter((line) => line.trim())
    .map((line) => {
      const item = JSON.parse(line);
      return {
        question: item.question,
        answers: [item.answer, ...(item.answer_aliases ?? [])],
        paragraphs: item.paragraphs.map((paragraph) => ({
          title: paragraph.title,
          sentences: sentencesOf(paragraph.paragraph_text),
        })),
        half: halfOf(item.id),
      };
    });
}

const shaped = (items, shape) => items.map((item) => ({ ...item, ...renderShape(item.paragraphs, shape) }));

/** [name, shape, items] per set and shape; NQ's raw pages once, as they come. */
export function loadSets() {
  const nq = naturalQuestions();
  const hotpot = hotpotQa();
  const musiqueItems = musique();
  const sets = [['NQ (L-Eval)', 'raw', nq]];
  for (const shape of shapes) {
    sets.push(['NQ', shape, nq && naturalQuestionsShaped(nq, shape)]);
    sets.push(['HotpotQA', shape, hotpot && shaped(hotpot, shape)]);
    sets.push(['MuSiQue', shape, musiqueItems && shaped(musiqueItems, shape)]);
  }
  const missing = [...new Set(sets.filter(([, , items]) => !items).map(([name]) => name))];
  if (missing.length > 0)
    console.error(`no data for ${missing.join(', ')} under ${evalRoot} (set DEEPSEARCH_EVAL_DIR)`);
  if (sets.every(([, , items]) => !items)) process.exit(2);
  return sets.filter(([, , items]) => items);
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
