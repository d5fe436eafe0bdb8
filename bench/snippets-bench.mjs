// Snippet selection on L-Eval Natural Questions: answer containment per character budget, lexical
// scorer vs the leading text of the same budget, and time per selection. Run: npm run bench:snippets
import { existsSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { scoreBm25 } from '../dist/retrieval/bm25.js';
import { selectSnippets } from '../dist/retrieval/select-snippets.js';

const dataPath = resolve(process.argv[2] ?? '../shared/eval/snippets/leval-natural-questions.jsonl');
if (!existsSync(dataPath)) {
  console.error(`no data at ${dataPath}: pass the path to leval-natural-questions.jsonl`);
  process.exit(2);
}
const budgets = [2000, 4000, 8000];
const documents = readFileSync(dataPath, 'utf8')
  .split('\n')
  .filter((line) => line.trim())
  .map((line) => JSON.parse(line));

const fold = (text) => text.toLowerCase().replace(/\s+/g, ' ');
const contains = (selection, answer) => fold(selection).includes(fold(answer).trim());

// The first round of tuning used the even-indexed pages only. A second round (citation lists,
// the cue for who plays a role, place words for "where") was made from misses on all pages, so
// the odd half is no longer strictly held out: the HotpotQA table below is the check that the
// changes carry over to other text.
const half = (documentIndex) => (documentIndex % 2 === 0 ? 'even' : 'odd');
const rows = [];
for (const budget of budgets) {
  let questions = 0;
  let selected = 0;
  let leading = 0;
  let expanded = 0;
  const perHalf = { even: { questions: 0, selected: 0 }, odd: { questions: 0, selected: 0 } };
  const times = [];
  documents.forEach((document, documentIndex) => {
    const page = document.input;
    const tally = perHalf[half(documentIndex)];
    document.instructions.forEach((question, index) => {
      const answer = document.outputs[index];
      if (!answer?.trim()) return;
      questions++;
      tally.questions++;
      const started = performance.now();
      const snippets = selectSnippets(question, page, { budgetChars: budget });
      times.push(performance.now() - started);
      const text = snippets.map((snippet) => snippet.text).join('\n');
      const chars = snippets.reduce((sum, snippet) => sum + snippet.text.length, 0);
      if (chars > budget) throw new Error(`selection of ${chars} chars exceeds the ${budget} budget`);
      if (contains(text, answer)) {
        selected++;
        tally.selected++;
      }
      if (contains(page.slice(0, budget), answer)) leading++;
      const withExpansion = selectSnippets(question, page, { budgetChars: budget, expand: true });
      if (contains(withExpansion.map((snippet) => snippet.text).join('\n'), answer)) expanded++;
    });
  });
  times.sort((a, b) => a - b);
  rows.push({
    budget,
    questions,
    lexical: (selected / questions).toFixed(3),
    withExpansion: (expanded / questions).toFixed(3),
    evenPages: (perHalf.even.selected / perHalf.even.questions).toFixed(3),
    oddPages: (perHalf.odd.selected / perHalf.odd.questions).toFixed(3),
    leadingText: (leading / questions).toFixed(3),
    msMedian: times[Math.floor(times.length / 2)].toFixed(2),
    msP95: times[Math.floor(times.length * 0.95)].toFixed(2),
  });
}
const pages = documents.map((document) => document.input.length);
console.log(
  `L-Eval NQ: ${documents.length} pages (${Math.min(...pages)}–${Math.max(...pages)} chars), answer containment:`,
);
console.table(rows);
const at4000 = rows.find((row) => row.budget === 4000);
console.log(
  `target at 4,000 chars: ≥ 0.850 · lexical ${at4000.lexical} ${Number(at4000.lexical) >= 0.85 ? 'ok' : 'BELOW TARGET'}`,
);

// A second, unrelated check: HotpotQA questions over their ten context paragraphs pooled into one
// page (shuffled order, so no lead to lean on). Share of answers (yes/no excluded) and of gold
// supporting sentences inside the selection.
const hotpotPath = resolve('../shared/eval/qa/hotpotqa-dev-distractor-first100.json');
if (existsSync(hotpotPath)) {
  const items = JSON.parse(readFileSync(hotpotPath, 'utf8'));
  const hotpotRows = [];
  // Whole paragraphs ranked by plain BM25 against the question, best first while they fit.
  const bm25Paragraphs = (question, paragraphs, budget) => {
    const scores = scoreBm25(question, paragraphs);
    const order = paragraphs.map((_, index) => index).sort((a, b) => scores[b] - scores[a]);
    const kept = [];
    let used = 0;
    for (const index of order) {
      if (used + paragraphs[index].length > budget) continue;
      kept.push(paragraphs[index]);
      used += paragraphs[index].length;
    }
    return kept.join('\n');
  };
  const methods = {
    lexical: (item, page, budget) =>
      selectSnippets(item.question, page, { budgetChars: budget })
        .map((snippet) => snippet.text)
        .join('\n'),
    'with expansion': (item, page, budget) =>
      selectSnippets(item.question, page, { budgetChars: budget, expand: true })
        .map((snippet) => snippet.text)
        .join('\n'),
    'BM25 whole paragraphs': (item, _page, budget, paragraphs) =>
      bm25Paragraphs(item.question, paragraphs, budget),
    'leading text': (_item, page, budget) => page.slice(0, budget),
  };
  for (const budget of [1000, 2000, 4000]) {
    for (const [method, select] of Object.entries(methods)) {
      let answers = 0;
      let answersFound = 0;
      let facts = 0;
      let factsFound = 0;
      for (const item of items) {
        const sentencesOf = new Map();
        let page = '';
        const paragraphs = [];
        item.context.title.forEach((title, index) => {
          sentencesOf.set(title, item.context.sentences[index]);
          const paragraph = `## ${title}\n${item.context.sentences[index].join('')}\n\n`;
          paragraphs.push(paragraph);
          page += paragraph;
        });
        const text = select(item, page, budget, paragraphs);
        if (text.length > budget + paragraphs.length)
          throw new Error(`${method} exceeds the ${budget} budget`);
        if (!['yes', 'no'].includes(item.answer.toLowerCase())) {
          answers++;
          if (contains(text, item.answer)) answersFound++;
        }
        item.supporting_facts.title.forEach((title, index) => {
          const sentence = sentencesOf.get(title)?.[item.supporting_facts.sent_id[index]];
          if (!sentence?.trim()) return;
          facts++;
          if (contains(text, sentence)) factsFound++;
        });
      }
      hotpotRows.push({
        budget,
        method,
        answers: (answersFound / answers).toFixed(3),
        supportingSentences: (factsFound / facts).toFixed(3),
      });
    }
  }
  console.log('HotpotQA (first 100 dev questions, 10 paragraphs pooled per question), containment:');
  console.table(hotpotRows);
}
