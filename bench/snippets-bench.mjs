// Snippet selection on three dev sets (L-Eval NQ long pages, HotpotQA and MuSiQue pages of joined
// paragraphs), each in four page shapes (markdown headings, plain title lines, no titles, one
// sentence per line; NQ's raw pages too): share of questions whose answer is inside the selection at
// 1,000/2,000/4,000 characters, for the shipped selector, the same without expansion, the agent's
// own call (PageStore.snippets), BM25 over whole blocks best first and the leading text, all in one
// run, per tuning and held-out half; a guarantee line per shape (ours ≥ each baseline everywhere);
// then CPU ms per selection. Run: npm run bench:snippets [-- --failures SET [SHAPE]]
// (--failures prints the shipped selector's misses at 2,000 chars, tuning half only).
import { execFileSync } from 'node:child_process';
import { PageStore } from '../dist/agent/state/page-store.js';
import { selectSnippets } from '../dist/retrieval/select-snippets.js';
import { bm25Blocks, containsAny, loadSets, shapes } from './snippet-sets.mjs';

const budgets = [1000, 2000, 4000];
// Each method returns the pieces it keeps; their lengths together must fit the budget.
const joined = (snippets) => snippets.map((snippet) => snippet.text);
const methods = {
  ours: (item, budget) => joined(selectSnippets(item.question, item.page, { budgetChars: budget })),
  'no expansion': (item, budget) =>
    joined(selectSnippets(item.question, item.page, { budgetChars: budget, expand: false })),
  'agent (PageStore)': (item, budget) => {
    const store = new PageStore();
    const page = store.add(
      { url: 'https://bench.test/', title: '', text: item.page, markdown: item.page },
      0,
    );
    return joined(store.snippets(page, item.question, budget));
  },
  'BM25 blocks': (item, budget) => bm25Blocks(item.question, item.blocks, budget),
  leading: (item, budget) => [item.page.slice(0, budget)],
};
const baselines = ['BM25 blocks', 'leading'];

const sets = loadSets();
const keyOf = (name, shape) => `${name} · ${shape}`;
const results = new Map(); // `${set · shape} ${budget} ${method}` → per-item hits
const cpu = new Map(); // same key → mean CPU ms
for (const [name, shape, items] of sets) {
  for (const budget of budgets) {
    for (const [method, select] of Object.entries(methods)) {
      const hits = [];
      let cpuMs = 0;
      for (const item of items) {
        const started = process.cpuUsage();
        const pieces = select(item, budget);
        const used = process.cpuUsage(started);
        cpuMs += (used.user + used.system) / 1000;
        const chars = pieces.reduce((sum, piece) => sum + piece.length, 0);
        if (chars > budget) throw new Error(`${method} kept ${chars} chars, over the ${budget} budget`);
        hits.push(containsAny(pieces.join('\n'), item.answers));
      }
      results.set(`${keyOf(name, shape)} ${budget} ${method}`, hits);
      cpu.set(`${keyOf(name, shape)} ${budget} ${method}`, cpuMs / items.length);
    }
  }
}

const share = (hits, items, half) => {
  const picked = hits.filter((_, index) => half === 'all' || items[index].half === half);
  return picked.filter(Boolean).length / Math.max(1, picked.length);
};
const at = (name, shape, budget, half = 'all', method = 'ours') => {
  const items = sets.find(([set, form]) => set === name && form === shape)?.[2];
  return items ? share(results.get(`${keyOf(name, shape)} ${budget} ${method}`), items, half) : Number.NaN;
};

console.log(`load: ${execFileSync('uptime').toString().trim()}`);
console.log('answer (or an alias) contained in the selection, share of questions:');
for (const shape of ['raw', ...shapes]) {
  const rows = [];
  const shortfalls = [];
  for (const [name, form, items] of sets) {
    if (form !== shape) continue;
    for (const half of ['tune', 'held-out', 'all']) {
      for (const budget of budgets) {
        const n = items.filter((item) => half === 'all' || item.half === half).length;
        const row = { set: name, half, n, budget };
        for (const method of Object.keys(methods))
          row[method] = at(name, shape, budget, half, method).toFixed(3);
        const below = baselines.filter((method) => Number(row.ours) < Number(row[method]));
        row['≥ baselines'] = below.length === 0 ? 'yes' : `NO (${below.join(', ')})`;
        if (below.length > 0) shortfalls.push(`${name} ${half} @${budget} < ${below.join(', ')}`);
        rows.push(row);
      }
    }
  }
  if (rows.length === 0) continue;
  console.log(`\n## shape: ${shape}`);
  console.table(rows);
  console.log(
    `guarantee (${shape}): ${shortfalls.length === 0 ? 'yes: ours ≥ BM25 blocks and leading text on every set, half and budget' : `NO: ${shortfalls.join('; ')}`}`,
  );
}

const goal = (label, value, target) =>
  `${label} ${value.toFixed(3)} (≥ ${target}: ${value >= target ? 'ok' : 'BELOW'})`;
console.log('\ngoals:');
console.log(`  ${goal('NQ (L-Eval) raw @4k', at('NQ (L-Eval)', 'raw', 4000), 0.85)}`);
for (const shape of shapes)
  console.log(
    `  ${shape}: ${['HotpotQA', 'MuSiQue']
      .map(
        (name) =>
          `${goal(`${name} @2k`, at(name, shape, 2000), 0.55)} · ${goal(`@4k`, at(name, shape, 4000), 0.75)}`,
      )
      .join(' · ')}`,
  );

const timeRows = [];
for (const [name, shape] of sets) {
  const row = { set: name, shape };
  for (const budget of budgets) {
    row[`ours @${budget / 1000}k`] = cpu.get(`${keyOf(name, shape)} ${budget} ours`).toFixed(3);
    row[`BM25 @${budget / 1000}k`] = cpu.get(`${keyOf(name, shape)} ${budget} BM25 blocks`).toFixed(3);
  }
  timeRows.push(row);
}
console.log('\nCPU ms per selection (process.cpuUsage, mean over the questions):');
console.table(timeRows);

const failuresIndex = process.argv.indexOf('--failures');
if (failuresIndex > 0)
  printFailures(process.argv[failuresIndex + 1] ?? 'MuSiQue', process.argv[failuresIndex + 2] ?? shapes[0]);

function printFailures(setName, shape) {
  const found = sets.find(([name, form]) => name.startsWith(setName) && (form === shape || form === 'raw'));
  if (!found) return;
  const [name, form, items] = found;
  const hits = results.get(`${keyOf(name, form)} 2000 ours`);
  items.forEach((item, index) => {
    if (item.half !== 'tune' || hits[index]) return;
    const kept = selectSnippets(item.question, item.page, { budgetChars: 2000 });
    console.log(`\nQ: ${item.question} → ${item.answers.join(' | ')}`);
    console.log(`  kept: ${kept.map((snippet) => snippet.text.split('\n')[0].slice(0, 60)).join(' | ')}`);
    const holding = item.blocks.filter((block) => containsAny(block, item.answers));
    console.log(`  answer in: ${holding.map((block) => block.split('\n')[0].slice(0, 60)).join(' | ')}`);
  });
}
