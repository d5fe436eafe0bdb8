// The layering of src/ as a check (run by `npm test`): each top folder is a layer, and a file may
// import only from its own folder or from a lower layer. A cycle between folders is then an
// import of a higher layer and fails too. Type-only imports count: a type pulls its folder in.
// Usage: node scripts/check-layers.mjs [srcDir]; prints each forbidden import and exits 1.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/** Lowest first. Folders on one line are beside each other: neither may import the other. */
export const layers = [
  ['core'],
  ['config'],
  ['platform'],
  ['extraction', 'structured-output', 'sandbox', 'retrieval'],
  ['embedded-model'],
  ['providers'],
  ['knowledge', 'events'],
  ['agent'],
  ['research'],
  ['runs', 'web', 'telemetry'],
  ['runtime'],
  ['scale'],
  ['watch'],
  ['api', 'mcp', 'eval', 'metrics'],
  ['server'],
  ['cli'],
  ['testing'],
];

/**
 * Inside a folder, its sub-folders as layers too (lowest first; files directly in the folder, its
 * composition, may import any of them). Each sub-folder named in `siblings` holds folders beside
 * each other: server/routes/<resource>/ may not import another resource's folder, nor
 * cli/commands/<name>/ another command's.
 */
export const innerLayers = {
  server: {
    layers: [['http'], ['run-request'], ['middleware', 'concurrency', 'answers'], ['routes']],
    siblings: ['routes'],
  },
  cli: {
    layers: [['io'], ['flags', 'help', 'progress'], ['output'], ['setup'], ['commands']],
    siblings: ['commands'],
  },
};

/** The forbidden import inside `folder` (a top folder with inner layers), or undefined. */
function innerProblem(folder, fromParts, toParts) {
  const inner = innerLayers[folder];
  const [fromSub, toSub] = [
    fromParts.length > 2 ? fromParts[1] : undefined,
    toParts.length > 2 ? toParts[1] : undefined,
  ];
  if (!inner || fromSub === undefined || toSub === undefined) return undefined;
  if (fromSub === toSub) {
    const sideways = inner.siblings.includes(fromSub) && fromParts.length > 3 && fromParts[2] !== toParts[2];
    return sideways
      ? { from: `${folder}/${fromSub}/${fromParts[2]}`, to: `${folder}/${toSub}/${toParts[2]}` }
      : undefined;
  }
  const rank = new Map(inner.layers.flatMap((names, index) => names.map((name) => [name, index])));
  const unknown = [fromSub, toSub].find((name) => !rank.has(name));
  if (unknown)
    return { from: `${folder}/${fromSub}`, to: `${folder}/${toSub}`, unknown: `${folder}/${unknown}` };
  return rank.get(toSub) >= rank.get(fromSub)
    ? { from: `${folder}/${fromSub}`, to: `${folder}/${toSub}` }
    : undefined;
}

const importPattern =
  /(?:import|export)\s[^'"]*?from\s+['"](\.[^'"]+)['"]|import\(\s*['"](\.[^'"]+)['"]\s*\)|^\s*import\s+['"](\.[^'"]+)['"]/gm;

function sourceFiles(dir) {
  const files = [];
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) files.push(...sourceFiles(path));
    else if (/\.ts$/.test(name) && !/\.(test|d)\.ts$/.test(name)) files.push(path);
  }
  return files;
}

/** The forbidden imports under `root`: from a folder to one not below it, or to or from an unlisted folder. */
export function checkLayers(root) {
  const rank = new Map(layers.flatMap((names, index) => names.map((name) => [name, index])));
  const folderOf = (path) => {
    const parts = relative(root, path).split('/');
    return parts.length === 1 ? undefined : parts[0];
  };
  const problems = [];
  for (const file of sourceFiles(root)) {
    const from = folderOf(file);
    const text = readFileSync(file, 'utf8');
    // Shipped code (the ./testing fakes included) never loads the test runner.
    if (/from\s+['"]vitest['"]/.test(text))
      problems.push({ file: relative(root, file), spec: 'vitest', from, to: 'vitest', runner: true });
    // Top-level files (index.ts, the package's surface) may gather anything.
    if (from === undefined) continue;
    for (const match of text.matchAll(importPattern)) {
      const spec = match[1] ?? match[2] ?? match[3];
      const target = resolve(dirname(file), spec);
      const to = folderOf(target);
      if (to === from) {
        const problem = innerProblem(
          from,
          relative(root, file).split('/'),
          relative(root, target).split('/'),
        );
        if (problem) problems.push({ file: relative(root, file), spec, ...problem });
        continue;
      }
      if (to === undefined) continue;
      const unknown = [from, to].find((folder) => !rank.has(folder));
      if (unknown || rank.get(to) >= rank.get(from))
        problems.push({ file: relative(root, file), spec, from, to, unknown });
    }
  }
  return problems;
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const root = resolve(process.argv[2] ?? 'src');
  const problems = checkLayers(root);
  for (const { file, spec, from, to, unknown, runner } of problems)
    console.error(
      runner
        ? `${file}: imports vitest: only *.test.ts files and test/helpers may (src/ ships in the package)`
        : unknown
          ? `${file}: imports ${spec}: folder ${unknown}/ is not in the layer list of scripts/check-layers.mjs`
          : `${file}: imports ${spec}: ${from}/ may not import ${to}/ (same or higher layer; see scripts/check-layers.mjs)`,
    );
  if (problems.length > 0) {
    console.error(
      `${problems.length} import(s) break the layering of ${relative(process.cwd(), root) || '.'}`,
    );
    process.exit(1);
  }
  const inner = Object.entries(innerLayers).map(
    ([folder, { layers: sub, siblings }]) =>
      `${folder}/: ${sub.map((names) => names.join(' ')).join(' < ')} (${siblings.map((name) => `${name}/*`).join(', ')} side by side)`,
  );
  console.log(
    `layers: ${layers.map((names) => names.join(' ')).join(' < ')}; ${inner.join('; ')}: no import goes up or sideways`,
  );
}
