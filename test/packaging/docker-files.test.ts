import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';

// Docker cannot run here: these tests read the files the way Docker would (the Dockerfile's
// instructions, compose.yaml as YAML, .dockerignore's rules) and check what a build would get.
const root = fileURLToPath(new URL('../..', import.meta.url));
const read = (name: string) => readFileSync(join(root, name), 'utf8');

/** Instructions with their continuation lines joined, comments dropped. */
function dockerfileInstructions(text: string): Array<{ keyword: string; args: string }> {
  const joined = text.replace(/\\\n/g, ' ');
  return joined
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '' && !line.startsWith('#'))
    .map((line) => {
      const [keyword = '', ...rest] = line.split(/\s+/);
      return { keyword: keyword.toUpperCase(), args: rest.join(' ') };
    });
}

/** .dockerignore as Docker applies it: the last matching rule wins; a rule on a folder covers what it holds. */
function dockerIgnoreMatcher(text: string): (path: string) => boolean {
  const rules = text
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '' && !line.startsWith('#'))
    .map((line) => {
      const negated = line.startsWith('!');
      const pattern = (negated ? line.slice(1) : line).replace(/^\/+|\/+$/g, '');
      const source = pattern
        .split('**')
        .map((part) =>
          part
            .replace(/[.+^${}()|[\]\\]/g, '\\$&')
            .replace(/\*/g, '[^/]*')
            .replace(/\?/g, '[^/]'),
        )
        .join('.*');
      return { negated, regex: new RegExp(`^${source.replace(/\.\*\//g, '(?:.*/)?')}$`) };
    });
  return (path) => {
    const prefixes = path.split('/').map((_, index, parts) => parts.slice(0, index + 1).join('/'));
    let ignored = false;
    for (const rule of rules) {
      if (prefixes.some((prefix) => rule.regex.test(prefix))) ignored = !rule.negated;
    }
    return ignored;
  };
}

function buildContext(): Array<{ path: string; size: number }> {
  const ignored = dockerIgnoreMatcher(read('.dockerignore'));
  const files: Array<{ path: string; size: number }> = [];
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const full = join(dir, entry.name);
      const path = relative(root, full);
      if (entry.isDirectory()) {
        // A folder excluded with nothing re-included below it is skipped whole, as Docker does.
        if (
          ignored(path) &&
          ![
            'src',
            'scripts/build-web.mjs',
            'scripts/build-cli.mjs',
            'scripts/install-embedded-runtime.sh',
          ].some((kept) => kept.startsWith(path))
        )
          continue;
        walk(full);
      } else if (!ignored(path)) {
        files.push({ path, size: statSync(full).size });
      }
    }
  };
  walk(root);
  return files;
}

describe('Dockerfile', () => {
  const instructions = dockerfileInstructions(read('Dockerfile'));
  const stages = instructions.filter((instruction) => instruction.keyword === 'FROM');
  const finalStage = instructions.slice(instructions.lastIndexOf(stages.at(-1)!));

  it('builds in one stage and runs from a slimmer one, as a non-root user', () => {
    expect(stages.length).toBeGreaterThanOrEqual(2);
    expect(stages[0]!.args).toMatch(/ AS build$/i);
    expect(finalStage.some((step) => step.keyword === 'COPY' && step.args.startsWith('--from=build'))).toBe(
      true,
    );
    // No toolchain in the final image.
    expect(finalStage.some((step) => /g\+\+|build-essential/.test(step.args))).toBe(false);
    const user = finalStage.filter((step) => step.keyword === 'USER').at(-1);
    expect(user?.args).toBeDefined();
    expect(['root', '0']).not.toContain(user!.args.split(':')[0]);
  });

  it("checks the server's /health and starts serve", () => {
    const healthcheck = finalStage.find((step) => step.keyword === 'HEALTHCHECK');
    expect(healthcheck?.args).toMatch(/CMD .*\/health/);
    expect(finalStage.find((step) => step.keyword === 'ENTRYPOINT')?.args).toContain('dist/cli/main.js');
    expect(finalStage.find((step) => step.keyword === 'CMD')?.args).toBe('["serve"]');
    expect(finalStage.find((step) => step.keyword === 'ENV')?.args).toContain('DEEPSEARCH_HOST=0.0.0.0');
  });

  it('adds Chromium (the browser reader, PDF export) only when built with WITH_CHROMIUM=1, as root', () => {
    const argument = finalStage.findIndex(
      (step) => step.keyword === 'ARG' && step.args === 'WITH_CHROMIUM=0',
    );
    const install = finalStage.findIndex((step) => step.keyword === 'RUN' && step.args.includes('chromium'));
    const user = finalStage.findIndex((step) => step.keyword === 'USER');
    expect(argument).toBeGreaterThanOrEqual(0);
    expect(finalStage[install]?.args).toMatch(
      /^if \[ "\$WITH_CHROMIUM" = 1 \]; then .*apt-get install -y --no-install-recommends chromium .*; fi$/,
    );
    expect(argument < install && install < user).toBe(true);
  });

  it('copies only files that exist and that the build context holds', () => {
    const context = new Set(buildContext().map((file) => file.path));
    const copies = instructions.filter((step) => step.keyword === 'COPY' && !step.args.startsWith('--from'));
    expect(copies.length).toBeGreaterThan(0);
    for (const copy of copies) {
      const sources = copy.args.split(/\s+/).slice(0, -1);
      for (const source of sources) {
        expect(existsSync(join(root, source)), source).toBe(true);
        expect(
          [...context].some((path) => path === source || path.startsWith(`${source}/`)),
          `${source} is in the build context`,
        ).toBe(true);
      }
    }
  });
});

describe('the image with the embedded model (--build-arg EMBEDDED_MODEL=true)', () => {
  const instructions = dockerfileInstructions(read('Dockerfile'));

  it('installs node-llama-cpp with the same script as CI, only when asked, and ships it', () => {
    const build = instructions.slice(
      0,
      instructions.findIndex((step, index) => index > 0 && step.keyword === 'FROM'),
    );
    expect(build).toContainEqual({ keyword: 'ARG', args: 'EMBEDDED_MODEL=false' });
    const install = build.find(
      (step) => step.keyword === 'RUN' && step.args.includes('install-embedded-runtime'),
    );
    expect(install?.args).toContain(
      'if [ "$EMBEDDED_MODEL" = "true" ]; then bash scripts/install-embedded-runtime.sh; fi',
    );
    // The runtime folder always exists, so the final stage's COPY works without the build arg too.
    expect(install?.args).toMatch(/^mkdir -p \.embedded-runtime /);
    expect(instructions).toContainEqual({
      keyword: 'COPY',
      args: '--from=build /app/.embedded-runtime ./.embedded-runtime',
    });
  });
});

describe('.dockerignore', () => {
  it('keeps the build context small: sources and the lock file, no node_modules, dist, tests or .git', () => {
    const context = buildContext();
    const paths = context.map((file) => file.path);
    expect(paths).toContain('package-lock.json');
    expect(paths).toContain('src/cli/main.ts');
    expect(paths.filter((path) => /^(node_modules|dist|\.git|test|bench)\//.test(path))).toEqual([]);
    expect(paths.filter((path) => path.endsWith('.test.ts') || path.startsWith('src/testing/'))).toEqual([]);
    const bytes = context.reduce((sum, file) => sum + file.size, 0);
    expect(bytes).toBeLessThan(3 * 1024 * 1024);
  });
});

describe('compose.yaml', () => {
  const compose = parse(read('compose.yaml')) as {
    services: Record<
      string,
      { build?: unknown; image?: string; environment?: Record<string, string>; volumes?: string[] }
    >;
  };

  it('runs deepsearch against SearXNG and Ollama in the same stack', () => {
    expect(Object.keys(compose.services)).toEqual(
      expect.arrayContaining(['deepsearch', 'searxng', 'ollama']),
    );
    const deepsearch = compose.services.deepsearch!;
    expect(deepsearch.build).toBe('.');
    expect(deepsearch.environment).toMatchObject({
      DEEPSEARCH_LLM_BASE_URL: 'http://ollama:11434/v1',
      DEEPSEARCH_SEARXNG_URL: 'http://searxng:8080',
      // It listens on 0.0.0.0 in the container, refused without keys unless allowed; the port is
      // published on the host's loopback only.
      DEEPSEARCH_ALLOW_UNAUTHENTICATED: 'true',
    });
    expect((deepsearch as { ports?: string[] }).ports).toEqual(['127.0.0.1:3000:3000']);
    expect(compose.services.searxng!.image).toMatch(/^searxng\/searxng/);
    expect(compose.services.ollama!.image).toMatch(/^ollama\/ollama/);
  });

  it('mounts a SearXNG settings file that turns the JSON format on', () => {
    const mount = compose.services.searxng!.volumes!.find((volume) =>
      volume.includes('/etc/searxng/settings.yml'),
    );
    expect(mount).toBeDefined();
    const settings = parse(read(mount!.split(':')[0]!)) as { search?: { formats?: string[] } };
    expect(settings.search?.formats).toContain('json');
  });
});
