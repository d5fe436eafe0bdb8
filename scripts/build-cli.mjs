// Bundles the command line (src/cli/main.ts) into dist/cli/bundle/ and makes dist/cli/main.js a
// stub that imports it. Why: started as ~190 separate ES modules (95 of them zod's: every entry of
// zod loads all its locales), Node spent most of a short command (`deepsearch kb search`) resolving,
// reading and compiling modules. One bundle, split at the lazy imports so a command still loads
// only what it uses, with zod and commander inside (zod tree-shaken: no locales), starts in about
// half the time. The library (dist/index.js and the rest of dist/) is tsc's output as before.
//
// What stays the same in the bundle:
// - npm packages other than zod and commander stay imports (native modules, wasm, files found
//   beside their code), resolved from dist/ as before;
// - `import.meta.url` in each module is the URL of that module's file in dist/ (tsc's output, the
//   same layout), so files found beside a module (the sandbox and extraction entries, the web UI,
//   package.json) are found as before;
// - errors: the CLI process loads only the bundle's copy of our modules (no module of dist/ is
//   imported by it; child processes start from dist/ or their own bundle but only exchange plain
//   messages), so the
//   classes the CLI tells apart by `instanceof` are one copy. zod's own checks are by trait, not by
//   class, and its registry is global, so schemas cross to packages with their own zod (MCP SDK).
import { chmod, mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { dirname, join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const src = join(root, 'src');
const out = join(root, 'dist', 'cli', 'bundle');
/** npm packages put in the bundle: pure JavaScript, loaded by every command. */
const inlined = new Set(['zod', 'commander']);

/** Every other npm package stays an import, resolved from the module's place in dist/. */
const externalPackages = {
  name: 'external-packages',
  setup(plugin) {
    plugin.onResolve({ filter: /^[^./]/ }, (args) => {
      if (args.path.startsWith('node:')) return { path: args.path, external: true };
      const name = args.path.startsWith('@')
        ? args.path.split('/').slice(0, 2).join('/')
        : args.path.split('/')[0];
      return inlined.has(name) ? undefined : { path: args.path, external: true };
    });
  },
};

/** `import.meta.url` of a source module becomes the URL its tsc output has in dist/. */
const moduleUrls = {
  name: 'module-urls',
  setup(plugin) {
    plugin.onLoad({ filter: /\.ts$/ }, async (args) => {
      const source = await readFile(args.path, 'utf8');
      if (!source.includes('import.meta.url')) return undefined;
      const built = join(root, 'dist', relative(src, args.path)).replace(/\.ts$/, '.js');
      const path = relative(out, built).split(sep).join('/');
      const url = `new URL(${JSON.stringify(path)}, import.meta.url).href`;
      return { contents: source.replaceAll('import.meta.url', url), loader: 'ts' };
    });
  },
};

await rm(out, { recursive: true, force: true });
/** What both bundles are: split ES modules for Node 20. */
const esmForNode = {
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  chunkNames: '[name]-[hash]',
};

await mkdir(out, { recursive: true });
await build({
  // run-thread-main: a server's run threads (src/scale/run-threads/) start on the same chunks.
  entryPoints: {
    main: join(src, 'cli/main.ts'),
    'run-thread-main': join(src, 'scale/run-threads/run-thread-main.ts'),
  },
  outdir: out,
  ...esmForNode,
  plugins: [externalPackages, moduleUrls],
  // commander is CommonJS and requires Node's modules: esbuild's require shim calls this one.
  banner: {
    js: "import { createRequire as __createRequire } from 'node:module';\nconst require = __createRequire(import.meta.url);",
  },
  legalComments: 'none',
  logLevel: 'warning',
});
// The stub: on Node 22 and later, V8's compiled code of the bundle is also kept between runs (a
// no-op on Node 20, which has no enableCompileCache).
await writeFile(
  join(root, 'dist', 'cli', 'main.js'),
  [
    '#!/usr/bin/env node',
    '// The command line, bundled by scripts/build-cli.mjs (which says why).',
    "import module from 'node:module';",
    '',
    'module.enableCompileCache?.();',
    "await import('./bundle/main.js');",
    '',
  ].join('\n'),
);
// tsc wrote main.js first (rw-r--r--), and writeFile's mode applies only to a file it creates.
await chmod(join(root, 'dist', 'cli', 'main.js'), 0o755);

// The extraction process (src/extraction/worker/extraction-main.ts) bundled too, into
// dist/extraction/worker/bundle/, which extraction-command.ts starts when it is there: every read
// of a CLI or a server whose process was just started waits for it. Split at the lazy imports (the
// process starts without its parsers and loads each on first use), with the HTML parser's packages
// inside (linkedom, Readability, Turndown: loaded as one file, it is ready in a third of the time);
// unpdf and mammoth stay imports (files beside their code, and rarely needed).
const extractionOut = join(root, 'dist', 'extraction', 'worker', 'bundle');
await rm(extractionOut, { recursive: true, force: true });
await build({
  // fetched-to-page: the same code for the one-shot `deepsearch read`, which parses a small page in
  // its own process (src/extraction/worker/small-page-extractor.ts) and loads it from here.
  entryPoints: {
    'extraction-main': join(src, 'extraction/worker/extraction-main.ts'),
    'fetched-to-page': join(src, 'extraction/fetched-to-page.ts'),
  },
  outdir: extractionOut,
  ...esmForNode,
  external: ['unpdf', 'mammoth'],
  // linkedom and Turndown are CommonJS in places and require Node's modules.
  banner: {
    js: "import { createRequire as __createRequire } from 'node:module';\nconst require = __createRequire(import.meta.url);",
  },
  legalComments: 'none',
  logLevel: 'warning',
});
