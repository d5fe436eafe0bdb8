// The layering of src/ as a check (run by `npm test`): each top folder is a layer, and a file may
// import only from its own folder or from a lower layer. A cycle between folders is then an
// import of a higher layer and fails too. Type-only imports count: a type pulls its folder in.
// Usage: node scripts/check-layers.mjs [srcDir]; prints each forbidden import and exits 1.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/** Lowest first. Folders on one line are beside each other: neither may import the other. */
export const layers = [
  ['errors', 'types'],
  ['core'],
  ['config'],
  ['providers'],
  ['retrieval'],
  ['knowledge', 'events'],
  ['agent'],
  ['research'],
  ['runs', 'web'],
  ['runtime'],
  ['scale'],
  ['api', 'mcp', 'eval'],
  ['server'],
  ['cli'],
  ['testing'],
];

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
      const to = folderOf(resolve(dirname(file), spec));
      if (to === undefined || to === from) continue;
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
  console.log(`layers: ${layers.map((names) => names.join(' ')).join(' < ')}: no import goes up or sideways`);
}
