// The knowledge base on HotpotQA (first 100 dev questions, distractor setting): every context
// paragraph of every question pooled into one corpus, one file per paragraph. Recall of the gold
// supporting paragraphs in the top 5/10/20, lexical only and with graph-aware expansion, for the
// tuning half (questions 1–50), the held-out half (51–100) and all, ingest rate and query latency;
// then `kb search` as a whole process on that base (goal < 150 ms), then 100,000 synthetic chunks
// with vectors (kb-synthetic.mjs): p50/p95 of the lexical, expansion and hybrid paths in process
// (goal p50 < 50 ms, p95 < 150 ms), database size, and the approximate vector search's recall
// against the exact one on clustered and random vectors (their queries are random lower-case
// words: expansion finds no names there, so that row is the cost of looking, not of searching).
// Run: npm run bench:kb [-- --synthetic 100000] [--runs 3] [--data hotpotqa.json] [--failures]
// The data is found under DEEPSEARCH_EVAL_DIR or shared/eval beside the checkout (eval-root.mjs).
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ingestDocuments } from '../dist/knowledge/ingest-documents.js';
import { KnowledgeStore } from '../dist/knowledge/knowledge-store.js';
import { searchKnowledge } from '../dist/knowledge/search-knowledge.js';
import { createLexicalEmbedding } from '../dist/providers/embedding/lexical-embedding.js';
import { evalRoot } from './eval-root.mjs';
import { cpuMs, pct, syntheticPass } from './kb-synthetic.mjs';

// --data <file> overrides the HotpotQA file found under the eval folder (eval-root.mjs).
const dataIndex = process.argv.indexOf('--data');
const dataPath =
  dataIndex > 0
    ? resolve(process.argv[dataIndex + 1])
    : resolve(evalRoot, 'qa/hotpotqa-dev-distractor-first100.json');
const syntheticIndex = process.argv.indexOf('--synthetic');
const syntheticChunks = syntheticIndex > 0 ? Number(process.argv[syntheticIndex + 1]) : 100_000;
const runsIndex = process.argv.indexOf('--runs');
const runs = runsIndex > 0 ? Number(process.argv[runsIndex + 1]) : 3;
const items = JSON.parse(readFileSync(dataPath, 'utf8'));
const work = mkdtempSync(join(tmpdir(), 'kb-bench-'));
const fileName = (title) => `${title.replace(/[^\p{L}\p{N}]+/gu, '_').slice(0, 80)}.md`;

try {
  const corpus = join(work, 'corpus');
  mkdirSync(corpus);
  const paragraphs = new Map();
  for (const item of items) {
    item.context.title.forEach((title, index) => {
      paragraphs.set(fileName(title), `# ${title}\n\n${item.context.sentences[index].join('')}\n`);
    });
  }
  for (const [name, text] of paragraphs) writeFileSync(join(corpus, name), text);

  // kb search leaves the built-in lexical vectors out (they are a second lexical ranking), so the
  // hybrid rows give them to it as if a model had made them: what fusing them would do.
  const embedding = { ...createLexicalEmbedding(), id: 'bench', model: 'lexical-as-model', builtin: false };
  const store = new KnowledgeStore({ file: join(work, 'hotpot.sqlite') });
  const report = await ingestDocuments({
    store,
    embedding,
    inputs: [corpus],
    cwd: work,
    collection: 'hotpot',
  });
  const rate = (report.added.length / (report.durationMs / 1000)).toFixed(0);
  console.log(
    `HotpotQA pooled corpus: ${report.added.length} paragraphs (${report.duplicates.length} duplicate texts skipped), ` +
      `${report.chunks} chunks, ingested at ${rate} documents/s with the lexical embedding (${store.vectorBackend})`,
  );

  // Questions 1–50 are the tuning half (failures studied, weights chosen there); 51–100 are held
  // out and only reported. "hard" is the recall@10 of the supporting paragraphs that plain BM25
  // leaves out of its top 10, what expansion has to recover; "hop2" is, for bridge questions, the
  // supporting paragraph BM25 ranks worse (the second hop, usually reached only through a name in
  // the first), found in the top 10.
  const halves = [
    ['tune 1-50', items.slice(0, 50)],
    ['held-out 51-100', items.slice(50)],
    ['all', items],
  ];
  const runsBySetting = new Map();
  for (const [label, settings] of [
    ['BM25 (FTS5)', { expand: false }],
    ['BM25 + expansion', { expand: true }],
    ['hybrid (BM25 + lexical vectors, RRF)*', { expand: false, embedding }],
    ['hybrid + expansion', { expand: true, embedding }],
  ]) {
    const results = new Map();
    for (const item of items) {
      const started = performance.now();
      const cpuStarted = process.cpuUsage();
      const { hits, entities } = await searchKnowledge({
        store,
        query: item.question,
        limit: 20,
        ...settings,
      });
      const cpu = cpuMs(cpuStarted);
      results.set(item, {
        names: hits.map((hit) => hit.source.split('/').at(-1)),
        entities,
        ms: performance.now() - started,
        cpu,
      });
    }
    runsBySetting.set(label, results);
  }
  const lexical = runsBySetting.get('BM25 (FTS5)');
  const rankIn = (names, name) => {
    const index = names.indexOf(name);
    return index < 0 ? Number.POSITIVE_INFINITY : index;
  };
  const goldOf = (item) => [...new Set(item.supporting_facts.title.map(fileName))];
  const hardOf = (item) => goldOf(item).filter((name) => rankIn(lexical.get(item).names, name) >= 10);
  const secondHopOf = (item) => {
    if (item.type !== 'bridge') return undefined;
    const names = lexical.get(item).names;
    return [...goldOf(item)].sort((a, b) => rankIn(names, b) - rankIn(names, a))[0];
  };
  const rows = [];
  for (const [label, results] of runsBySetting) {
    for (const [half, subset] of halves) {
      const found = { 5: 0, 10: 0, 20: 0 };
      let all10 = 0;
      let gold = 0;
      let hard = 0;
      let hardFound = 0;
      let hops = 0;
      let hopFound = 0;
      for (const item of subset) {
        const { names } = results.get(item);
        const wanted = goldOf(item);
        gold += wanted.length;
        for (const k of [5, 10, 20]) {
          const count = wanted.filter((name) => rankIn(names, name) < k).length;
          found[k] += count;
          if (k === 10 && count === wanted.length) all10++;
        }
        for (const name of hardOf(item)) {
          hard++;
          if (rankIn(names, name) < 10) hardFound++;
        }
        const hop = secondHopOf(item);
        if (hop) {
          hops++;
          if (rankIn(names, hop) < 10) hopFound++;
        }
      }
      const times = subset.map((item) => results.get(item).ms).sort((a, b) => a - b);
      const cpuTimes = subset.map((item) => results.get(item).cpu).sort((a, b) => a - b);
      rows.push({
        retrieval: label,
        questions: half,
        'para@5': (found[5] / gold).toFixed(3),
        'para@10': (found[10] / gold).toFixed(3),
        'para@20': (found[20] / gold).toFixed(3),
        'all@10': (all10 / subset.length).toFixed(2),
        'hard@10 (n)': `${(hardFound / Math.max(1, hard)).toFixed(2)} (${hard})`,
        'hop2@10 (n)': `${(hopFound / Math.max(1, hops)).toFixed(2)} (${hops})`,
        msP50: pct(times, 0.5),
        msP95: pct(times, 0.95),
        cpuMsP50: pct(cpuTimes, 0.5),
      });
    }
  }
  console.log(
    'recall of gold supporting paragraphs (para@k: share of paragraphs; all@10: questions with all found; ' +
      "hard@10: of those BM25 leaves out of its top 10; hop2@10: bridge questions' second hop):",
  );
  console.table(rows);
  const expanded = rows.find(
    (row) => row.retrieval === 'BM25 + expansion' && row.questions === 'held-out 51-100',
  );
  console.log(`goal: para@10 ≥ 0.70 with expansion, no LLM · held-out half ${expanded['para@10']}`);
  console.log(
    '* lexical vectors fused as if a model had made them; kb search leaves the built-in ones out, so its default is the BM25 rows',
  );
  // --failures: the tuning half's misses with what BM25 found and what expansion searched for.
  if (process.argv.includes('--failures')) {
    const withExpansion = runsBySetting.get('BM25 + expansion');
    for (const item of items.slice(0, 50)) {
      const { names, entities } = withExpansion.get(item);
      const missed = goldOf(item).filter((name) => rankIn(names, name) >= 10);
      if (missed.length === 0) continue;
      console.log(`\nQ (${item.type}): ${item.question}  → ${item.answer}`);
      for (const name of missed) {
        console.log(
          `  missed ${name} (BM25 rank ${rankIn(lexical.get(item).names, name) + 1}, expanded rank ${rankIn(names, name) + 1})`,
        );
        console.log(`    ${paragraphs.get(name).slice(0, 300).replace(/\n+/g, ' ')}`);
      }
      console.log(`  BM25 top 5: ${lexical.get(item).names.slice(0, 5).join(' | ')}`);
      console.log(`  expanded top 10: ${names.slice(0, 10).join(' | ')}`);
      console.log(`  entities: ${entities.join(' | ')}`);
    }
  }
  store.close();
  wholeProcessPass(
    join(work, 'hotpot.sqlite'),
    items.slice(0, 20).map((item) => item.question),
  );

  if (syntheticChunks > 0) await syntheticPass({ work, count: syntheticChunks, runs });
} finally {
  rmSync(work, { recursive: true, force: true });
}

/**
 * `deepsearch kb search` as a whole process on the HotpotQA base (990 paragraphs), as a person runs
 * it: the built CLI started fresh each time, median wall and CPU time (user + system, from /proc)
 * of BENCH_PROCESS_RUNS runs after a warm-up, with `deepsearch --version` as the floor (Node and
 * the command definitions). The same search through tsc's separate modules of dist/ (what the CLI
 * ran before scripts/build-cli.mjs bundled it) is measured in the same rounds, for comparison.
 */
function wholeProcessPass(kbFile, questions) {
  const cli = fileURLToPath(new URL('../dist/cli/main.js', import.meta.url));
  const home = join(work, 'home');
  mkdirSync(home, { recursive: true });
  const env = { PATH: process.env.PATH ?? '', HOME: home, XDG_DATA_HOME: home, NO_COLOR: '1' };
  const modules = new URL('../dist/cli/run-cli.js', import.meta.url).href;
  const unbundled = [
    '--input-type=module',
    '--eval',
    `import { runCli } from ${JSON.stringify(modules)};
     process.exitCode = await runCli({ argv: ['node', 'deepsearch', ...process.argv.slice(1)], env: process.env,
       cwd: process.cwd(), stdout: process.stdout, stderr: process.stderr, stdin: process.stdin,
       signal: new AbortController().signal });`,
    '--',
  ];
  const runCli = (args) => {
    const cpuStarted = childrenCpuMs();
    const started = performance.now();
    const argv = args[0] === unbundled ? [...unbundled, ...args.slice(1)] : [cli, ...args];
    execFileSync(process.execPath, argv, { env, stdio: ['ignore', 'ignore', 'pipe'] });
    return { wall: performance.now() - started, cpu: childrenCpuMs() - cpuStarted };
  };
  const processRuns = Number(process.env.BENCH_PROCESS_RUNS ?? 10);
  const cases = [
    ['deepsearch --version', () => ['--version']],
    [
      'kb search (expansion on, the default)',
      (index) => ['kb', 'search', questions[index % questions.length], '--kb', kbFile],
    ],
    [
      'kb search --no-expand',
      (index) => ['kb', 'search', questions[index % questions.length], '--kb', kbFile, '--no-expand'],
    ],
    [
      'kb search, unbundled dist/ modules (before)',
      (index) => [unbundled, 'kb', 'search', questions[index % questions.length], '--kb', kbFile],
    ],
  ];
  // Rounds: each case once per round, so a change in the machine's load falls on every case alike.
  for (const [, args] of cases) runCli(args(0));
  const samples = cases.map(() => []);
  for (let round = 0; round < processRuns; round++) {
    for (const [index, [, args]] of cases.entries()) samples[index].push(runCli(args(round + 1)));
  }
  const rows = cases.map(([label], index) => {
    const wall = samples[index].map((sample) => sample.wall).sort((a, b) => a - b);
    const cpu = samples[index].map((sample) => sample.cpu).sort((a, b) => a - b);
    const goal = label.startsWith('kb search') && !label.includes('before');
    return {
      process: label,
      msMedian: pct(wall, 0.5),
      cpuMsMedian: pct(cpu, 0.5),
      goal: goal ? (pct(wall, 0.5) < 150 ? '< 150 ms: met' : '< 150 ms: MISSED') : '',
    };
  });
  console.log(
    `\nwhole process on the HotpotQA base (${processRuns} rounds after a warm-up; goal kb search < 150 ms wall; ` +
      `load ${loadavg()
        .map((value) => value.toFixed(1))
        .join(' ')}):`,
  );
  console.table(rows);
}

/** CPU time (user + system) of this process's finished children so far, in ms (/proc, 10 ms ticks). */
function childrenCpuMs() {
  const fields = readFileSync('/proc/self/stat', 'utf8').split(') ')[1].split(' ');
  return (Number(fields[13]) + Number(fields[14])) * 10;
}
