// Snippet selection on three dev sets (L-Eval NQ long pages, HotpotQA and MuSiQue pages of joined
// paragraphs): share of questions whose answer is inside the selection at 1,000/2,000/4,000
// characters, for the shipped selector, the same without expansion, the agent's own call
// (PageStore.snippets), BM25 whole paragraphs best first and the leading text, all in one run, per
// tuning and held-out half; then CPU ms per selection. Run: npm run bench:snippets [-- --failures SET]
// (--failures prints the shipped selector's misses at 2,000 chars, tuning half only).
import { execFileSync } from 'node:child_process';
import { PageStore } from '../dist/agent/state/page-store.js';
import { selectSnippets } from '../dist/retrieval/select-snippets.js';
import { bm25Blocks, containsAny, loadSets } from './snippet-sets.mjs';

const budgets = [1000, 2000, 4000];
// Each method returns the pieces it keeps; their lengths together must fit the budget.
const joined = (snippets) => snippets.map((snippet) => snippet.text);
const methods = {
  ours: (item, budget) => joined(selectSnippets(item.question, item.page, { budgetChars: budget })),
  'ours, no expansion': (item, budget) =>
    joined(selectSnippets(item.question, item.page, { budgetChars: budget, expand: false })),
  'agent (PageStore)': (item, budget) => {
    const store = new PageStore();
    const page = store.add(
      { url: 'https://bench.test/', title: '', text: item.page, markdown: item.page },
      0,
    );
    return joined(store.snippets(page, item.question, budget));
  },
  'BM25 paragraphs': (item, budget) => bm25Blocks(item.question, item.blocks, budget),
  leading: (item, budget) => [item.page.slice(0, budget)],
};
const timed = new Set(['ours', 'ours, no expansion', 'agent (PageStore)', 'BM25 paragraphs']);

const sets = loadSets();
const results = new Map(); // set → budget → method → per-item hits
const cpu = new Map(); // `${set} ${budget} ${method}` → CPU ms in all
for (const [name, items] of sets) {
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
      results.set(`${name} ${budget} ${method}`, hits);
      cpu.set(`${name} ${budget} ${method}`, cpuMs / items.length);
    }
  }
}

const share = (hits, items, half) => {
  const picked = hits.filter((_, index) => half === 'all' || items[index].half === half);
  return picked.filter(Boolean).length / Math.max(1, picked.length);
};
const rows = [];
const shortfalls = [];
for (const [name, items] of sets) {
  for (const half of ['tune', 'held-out', 'all']) {
    for (const budget of budgets) {
      const row = {
        set: name,
        half,
        n: items.filter((item) => half === 'all' || item.half === half).length,
        budget,
      };
      for (const method of Object.keys(methods))
        row[method] = share(results.get(`${name} ${budget} ${method}`), items, half).toFixed(3);
      const floor = Math.max(Number(row['BM25 paragraphs']), Number(row.leading));
      row['≥ baselines'] = Number(row.ours) >= floor ? 'yes' : 'NO';
      if (Number(row.ours) < floor) shortfalls.push(`${name} ${half} @${budget}`);
      rows.push(row);
    }
  }
}
console.log(`load: ${execFileSync('uptime').toString().trim()}`);
console.log('answer (or an alias) contained in the selection, share of questions:');
console.table(rows);
console.log(
  shortfalls.length === 0
    ? 'guarantee: the shipped selector is at or above BM25 paragraphs and leading text on every set, half and budget'
    : `guarantee BROKEN (shipped below a baseline): ${shortfalls.join(', ')}`,
);
const at = (name, budget) => {
  const items = sets.find(([set]) => set === name)?.[1];
  return items ? share(results.get(`${name} ${budget} ours`), items, 'all') : Number.NaN;
};
const goal = (label, value, target) =>
  `${label} ${value.toFixed(3)} (goal ≥ ${target}: ${value >= target ? 'ok' : 'BELOW'})`;
console.log(
  `goals: ${goal('MuSiQue @2k', at('MuSiQue', 2000), 0.55)} · ${goal('MuSiQue @4k', at('MuSiQue', 4000), 0.75)} · ${goal('NQ @4k', at('NQ (L-Eval)', 4000), 0.85)}`,
);

const timeRows = [];
for (const [name] of sets) {
  for (const budget of budgets) {
    const row = { set: name, budget };
    for (const method of timed) row[`${method} CPU ms`] = cpu.get(`${name} ${budget} ${method}`).toFixed(3);
    timeRows.push(row);
  }
}
console.log('CPU ms per selection (process.cpuUsage, mean over the questions):');
console.table(timeRows);

const failuresIndex = process.argv.indexOf('--failures');
if (failuresIndex > 0) printFailures(process.argv[failuresIndex + 1] ?? 'MuSiQue');

function printFailures(setName) {
  const items = sets.find(([name]) => name.startsWith(setName))?.[1] ?? [];
  const hits = results.get(`${sets.find(([name]) => name.startsWith(setName))?.[0]} 2000 ours`) ?? [];
  items.forEach((item, index) => {
    if (item.half !== 'tune' || hits[index]) return;
    const kept = selectSnippets(item.question, item.page, { budgetChars: 2000 });
    console.log(`\nQ: ${item.question} → ${item.answers.join(' | ')}`);
    console.log(`  kept: ${kept.map((snippet) => snippet.text.split('\n')[0].slice(0, 60)).join(' | ')}`);
    const holding = item.blocks.filter((block) => containsAny(block, item.answers));
    console.log(`  answer in: ${holding.map((block) => block.split('\n')[0].slice(0, 60)).join(' | ')}`);
  });
}
