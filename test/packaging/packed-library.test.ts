import { execFile } from 'node:child_process';
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FakeHttpServer } from '../../src/testing/fake-http-server.js';
import { type FakeOpenAiServer, startFakeOpenAi } from '../../src/testing/fake-openai-server.js';
import { startFakeSearxng } from '../helpers/fake-searxng-server.js';
import { startFakeWeb } from '../helpers/fake-web-server.js';
import { heatPumpTexts } from '../helpers/heat-pump-world.js';
import { citedPages, citedRoutes, citedSearchResults, oscarsQuote } from '../helpers/mcp-fixtures.js';
import { researchRoutes, researchTopic, researchWebPages } from '../helpers/research-fake-llm.js';

const run = promisify(execFile);
const root = fileURLToPath(new URL('../..', import.meta.url));

/** The first ```ts block of a document (README.md, docs/library.md) after `marker`: what users copy. */
function documentedExample(file: string, marker: string): string {
  const text = readFileSync(join(root, file), 'utf8');
  const at = text.indexOf(marker);
  const match = at < 0 ? null : /```ts\n([\s\S]*?)```/.exec(text.slice(at));
  if (!match) throw new Error(`${file}: no \`\`\`ts block after "${marker}"`);
  return match[1]!;
}

/** The deep search example of the README's "Use as a library". */
const readmeLibraryExample = () => documentedExample('README.md', '## Use as a library');
/** docs/library.md's custom search provider wrapped with middleware (type-checked, not run: it calls an intranet). */
const libraryMiddlewareExample = () => documentedExample('docs/library.md', '## Writing a middleware');
/** The research example of docs/library.md, after the paragraph on `research(topic, options)`. */
const libraryResearchExample = () =>
  documentedExample('docs/library.md', '`research(topic, options)` is the same for research mode');

/** tsc from the app's own node_modules (as a TypeScript user has it) over `files`; emits to outDir when given. */
async function typeCheck(
  app: string,
  options: { config: string; files: string[]; outDir?: string },
): Promise<{ code: number; output: string }> {
  const compilerOptions = {
    target: 'es2022',
    module: 'nodenext',
    moduleResolution: 'nodenext',
    strict: true,
    skipLibCheck: true,
    types: ['node'],
    ...(options.outDir ? { outDir: options.outDir } : { noEmit: true }),
  };
  writeFileSync(join(app, options.config), JSON.stringify({ compilerOptions, files: options.files }));
  const tsc = join(app, 'node_modules/typescript/bin/tsc');
  return run(process.execPath, [tsc, '-p', options.config], { cwd: app, timeout: 60_000 }).then(
    () => ({ code: 0, output: '' }),
    (error: { code: number; stdout: string }) => ({ code: error.code, output: error.stdout }),
  );
}

/**
 * The package as users get it: the tarball `npm pack` makes (from the build `npm test` has just
 * made: no second build), installed in an empty folder, imported by the README's example run
 * against fake servers, and the same example type-checked by tsc against the installed types.
 */
describe('the packed package as a library', () => {
  let work: string;
  let app: string;
  let web: FakeHttpServer;
  let searxng: FakeHttpServer;
  let llm: FakeOpenAiServer;
  // The research example's world: heat pump market pages and a model answering every research call.
  const research = {} as { web: FakeHttpServer; searxng: FakeHttpServer; llm: FakeOpenAiServer };

  beforeAll(async () => {
    if (!existsSync(join(root, 'dist/index.js')))
      throw new Error('dist/ is missing: run npm run build first');
    work = mkdtempSync(join(tmpdir(), 'deepsearch-packed-'));
    app = join(work, 'app');
    mkdirSync(app);
    const packed = await run('npm', ['pack', '--ignore-scripts', '--silent', '--pack-destination', work], {
      cwd: root,
    });
    const tarball = join(work, packed.stdout.trim().split('\n').at(-1)!);
    writeFileSync(join(app, 'package.json'), JSON.stringify({ name: 'app', private: true, type: 'module' }));
    // Install scripts skipped: the example runs without the cache, so better-sqlite3 need not compile.
    // typescript and @types/node as a TypeScript user has them (same versions as this repository).
    const versionOf = (name: string) =>
      (
        JSON.parse(readFileSync(join(root, 'node_modules', name, 'package.json'), 'utf8')) as {
          version: string;
        }
      ).version;
    await run(
      'npm',
      [
        'install',
        '--no-audit',
        '--no-fund',
        '--prefer-offline',
        '--ignore-scripts',
        tarball,
        `typescript@${versionOf('typescript')}`,
        `@types/node@${versionOf('@types/node')}`,
      ],
      { cwd: app, timeout: 240_000 },
    );
    web = await startFakeWeb({ pages: citedPages });
    searxng = await startFakeSearxng({ results: citedSearchResults(web.url) });
    llm = await startFakeOpenAi({ routes: citedRoutes(web.url) });
    research.web = await startFakeWeb({ pages: researchWebPages });
    research.searxng = await startFakeSearxng({
      results: {
        'European heat pump sales': [
          {
            url: `${research.web.url}/ehpa`,
            title: 'EHPA market report',
            content: 'Market data for Europe.',
          },
          { url: `${research.web.url}/iea`, title: 'IEA heat pumps', content: 'An outlook for heat pumps.' },
        ],
      },
    });
    research.llm = await startFakeOpenAi({ routes: researchRoutes(research.web.url) });
  }, 300_000);

  afterAll(async () => {
    await Promise.all(
      [web, searxng, llm, research.web, research.searxng, research.llm].map((server) => server?.close()),
    );
    // A whole node_modules: longer than the default hook timeout on a busy machine.
    if (work) rmSync(work, { recursive: true, force: true });
  }, 120_000);

  it("runs the README's example: events as they happen, then the answer with its verified quote", async () => {
    writeFileSync(join(app, 'example.mjs'), readmeLibraryExample());
    const { stdout, stderr } = await run(process.execPath, ['example.mjs'], {
      cwd: app,
      timeout: 60_000,
      env: {
        PATH: process.env.PATH ?? '',
        HOME: work,
        DEEPSEARCH_LLM_BASE_URL: `${llm.url}/v1`,
        DEEPSEARCH_LLM_MODEL: 'fake-model',
        DEEPSEARCH_SEARCH_PROVIDER: 'searxng',
        DEEPSEARCH_SEARXNG_URL: searxng.url,
        DEEPSEARCH_ALLOW_PRIVATE_NETWORK: 'true',
        DEEPSEARCH_NO_CACHE: '1',
      },
    });
    expect(stderr).toContain('step 1: Who directed the film');
    expect(stderr).toContain(`read ${web.url}/oscars`);
    expect(stdout).toContain('Peter Farrelly');
    expect(stdout).toContain(`[^1] ${web.url}/oscars: "${oscarsQuote.slice(0, -1)}"`);
    expect(stdout).toContain('confidence: high');
    llm.assertConsumed();
  }, 90_000);

  it("runs docs/library.md's research example: persona lines as they happen, then a report with verified references", async () => {
    const example = libraryResearchExample();
    // The fake model's plan and pages are about this topic: the documented example asks it.
    expect(example).toContain(researchTopic);
    writeFileSync(join(app, 'research-example.mjs'), example);
    const { stdout, stderr } = await run(process.execPath, ['research-example.mjs'], {
      cwd: app,
      timeout: 60_000,
      env: {
        PATH: process.env.PATH ?? '',
        HOME: work,
        DEEPSEARCH_LLM_BASE_URL: `${research.llm.url}/v1`,
        DEEPSEARCH_LLM_MODEL: 'fake-model',
        DEEPSEARCH_SEARCH_PROVIDER: 'searxng',
        DEEPSEARCH_SEARXNG_URL: research.searxng.url,
        DEEPSEARCH_ALLOW_PRIVATE_NETWORK: 'true',
        DEEPSEARCH_NO_CACHE: '1',
      },
    });
    expect(stderr).toContain('strategist: planning the report');
    expect(stderr).toContain('librarian: after hop 1: 2 of 2 covered');
    expect(stderr).toMatch(/^synthesizer: /m);
    expect(stdout).toMatch(/^# European heat pump sales after 2022\n/);
    expect(stdout).toContain('## Sales');
    expect(stdout).toContain('Sales: 100% of its questions covered');
    const pages: Record<string, string> = {
      [`${research.web.url}/ehpa`]: heatPumpTexts.ehpa,
      [`${research.web.url}/iea`]: heatPumpTexts.iea,
    };
    const references = [...stdout.matchAll(/^\[\^(\d+)\] (\S+): "(.*)"$/gm)].map(([, index, url, quote]) => ({
      index: Number(index),
      url: url!,
      quote: quote!,
    }));
    expect(references.length).toBeGreaterThanOrEqual(3);
    expect(references.map((reference) => reference.index)).toEqual(references.map((_, at) => at + 1));
    // Every reference's quote is on the page it points to.
    for (const reference of references) expect(pages[reference.url]).toContain(reference.quote);
  }, 90_000);

  it('type-checks the example and typed uses of the API with tsc against the installed package', async () => {
    writeFileSync(join(app, 'example.ts'), readmeLibraryExample());
    writeFileSync(join(app, 'research-example.ts'), libraryResearchExample());
    writeFileSync(join(app, 'middleware-example.ts'), libraryMiddlewareExample());
    copyFileSync(join(root, 'test/packaging/fixtures/typed-api.ts'), join(app, 'typed.ts'));
    const checked = await typeCheck(app, {
      config: 'tsconfig.json',
      files: ['example.ts', 'research-example.ts', 'middleware-example.ts', 'typed.ts'],
    });
    expect(checked.output).toBe('');
    expect(checked.code).toBe(0);
  }, 90_000);

  it('loads every subpath export from the tarball, and nothing else', async () => {
    const probe = `
const entries = { '.': 'deepsearch', server: 'deepsearch/server', providers: 'deepsearch/providers', testing: 'deepsearch/testing' };
const loaded = {};
for (const [name, specifier] of Object.entries(entries)) loaded[name] = Object.keys(await import(specifier)).sort();
const internal = await import('deepsearch/dist/providers/search/fallback-search.js').then(() => 'loaded', (error) => error.code);
console.log(JSON.stringify({ loaded, internal }));`;
    // No vitest in this app: deepsearch/testing loading here shows it imports no test runner.
    expect(existsSync(join(app, 'node_modules/vitest'))).toBe(false);
    const { stdout } = await run(process.execPath, ['--input-type=module', '--eval', probe], { cwd: app });
    const { loaded, internal } = JSON.parse(stdout) as { loaded: Record<string, string[]>; internal: string };
    expect(loaded['.']).toEqual(
      expect.arrayContaining(['createRuntime', 'deepSearch', 'research', 'loadConfig', 'errorCodes']),
    );
    expect(loaded['.']).not.toContain('startServer');
    expect(loaded.server).toEqual(['createServerApp', 'startServer']);
    expect(loaded.providers).toEqual(
      expect.arrayContaining([
        'wrapSearchProvider',
        'wrapPageReader',
        'createConcurrencyLimitMiddleware',
        'createBraveSearch',
      ]),
    );
    expect(loaded.testing).toEqual(
      expect.arrayContaining(['createFakeSearch', 'createFakeReader', 'createScriptedLlm', 'scriptedStep']),
    );
    expect(internal).toBe('ERR_PACKAGE_PATH_NOT_EXPORTED');
  }, 60_000);

  it('type-checks and runs a custom versioned search provider wrapped with middleware, through every subpath', async () => {
    copyFileSync(join(root, 'test/packaging/fixtures/subpath-usage.ts'), join(app, 'subpath-usage.ts'));
    // Emitted as well as checked: what runs below is what tsc made of the typed source.
    const checked = await typeCheck(app, {
      config: 'tsconfig.usage.json',
      files: ['subpath-usage.ts'],
      outDir: 'out',
    });
    expect(checked.output).toBe('');
    expect(checked.code).toBe(0);
    const { stdout } = await run(process.execPath, ['out/subpath-usage.js'], {
      cwd: app,
      timeout: 60_000,
      env: { PATH: process.env.PATH ?? '', HOME: work },
    });
    expect(JSON.parse(stdout)).toEqual({
      searchId: 'tides',
      version: 'v1',
      asked: ['brest spring tides'],
      answer: expect.stringContaining('Spring tides in Brest reach 7.5 metres'),
      references: ['https://tides.example/brest'],
      models: expect.arrayContaining(['deepsearch']),
    });
  }, 90_000);
});
