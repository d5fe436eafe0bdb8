import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { renderConfigurationDoc } from '../../scripts/docs/render-configuration-doc.js';
import { renderErrorCodesDoc } from '../../scripts/docs/render-error-codes-doc.js';

const root = fileURLToPath(new URL('../..', import.meta.url));

/** README.md, ARCHITECTURE.md, docs/*.md and the README.md files next to the code. */
function markdownFiles(): string[] {
  const found = ['README.md', 'ARCHITECTURE.md'].map((name) => join(root, name)).filter(existsSync);
  const walk = (folder: string, only?: string) => {
    for (const name of readdirSync(folder)) {
      const path = join(folder, name);
      if (statSync(path).isDirectory()) walk(path, only);
      else if (name.endsWith('.md') && (!only || name === only)) found.push(path);
    }
  };
  walk(join(root, 'docs'));
  walk(join(root, 'src'), 'README.md');
  return found;
}

/** GitHub's anchor for a heading: lower case, punctuation dropped, spaces to hyphens. */
function slug(heading: string): string {
  return heading
    .trim()
    .toLowerCase()
    .replace(/`/g, '')
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .replace(/\s/g, '-');
}

function anchors(file: string): Set<string> {
  const text = readFileSync(file, 'utf8').replace(/^```[\s\S]*?^```/gm, '');
  const seen = new Map<string, number>();
  const out = new Set<string>();
  for (const [, heading] of text.matchAll(/^#{1,6} (.+)$/gm)) {
    const base = slug(heading!);
    const count = seen.get(base) ?? 0;
    out.add(count === 0 ? base : `${base}-${count}`);
    seen.set(base, count + 1);
  }
  return out;
}

/** Relative links `[text](target)` outside code blocks and code spans. */
function links(file: string): string[] {
  const text = readFileSync(file, 'utf8')
    .replace(/^```[\s\S]*?^```/gm, '')
    .replace(/`[^`\n]*`/g, '');
  return [...text.matchAll(/\]\(([^)\s]+)\)/g)]
    .map((match) => match[1]!)
    .filter((target) => !/^[a-z][a-z+.-]*:/i.test(target));
}

describe('the documentation', () => {
  it('has docs/configuration.md as npm run docs:config generates it from the settings table', () => {
    const committed = readFileSync(join(root, 'docs/configuration.md'), 'utf8');
    // A failure here: run `npm run docs:config` and commit the file.
    expect(committed).toBe(renderConfigurationDoc());
  });

  it('has docs/error-codes.md as npm run docs:errors generates it from the error-code catalog', () => {
    const committed = readFileSync(join(root, 'docs/error-codes.md'), 'utf8');
    // A failure here: run `npm run docs:errors` and commit the file.
    expect(committed).toBe(renderErrorCodesDoc());
  });

  it('has no relative link to a file or heading that does not exist', () => {
    const broken: string[] = [];
    for (const file of markdownFiles()) {
      for (const target of links(file)) {
        const [path, anchor] = target.split('#') as [string, string | undefined];
        const goal = path ? resolve(dirname(file), decodeURIComponent(path)) : file;
        const where = `${relative(root, file)}: (${target})`;
        if (!existsSync(goal)) broken.push(`${where} no such file`);
        else if (anchor && goal.endsWith('.md') && !anchors(goal).has(anchor))
          broken.push(`${where} no such heading`);
      }
    }
    expect(broken).toEqual([]);
  });

  it('keeps README.md to at most 200 lines', () => {
    expect(readFileSync(join(root, 'README.md'), 'utf8').split('\n').length).toBeLessThanOrEqual(200);
  });

  it("lists in ARCHITECTURE.md's layer table the folders and layers that check-layers enforces", () => {
    // The script prints its layer list on success: "layers: errors types < core < ...; server/: http
    // < ...: no import ..." (the folder layers come before the first ';', sub-folder rules after).
    const run = spawnSync(process.execPath, [join(root, 'scripts/check-layers.mjs'), join(root, 'src')], {
      encoding: 'utf8',
    });
    const list = /^layers: ([^;:]+)[;:] /m.exec(run.stdout)?.[1];
    expect(list, run.stderr).toBeDefined();
    const enforced = list!
      .split(' < ')
      .flatMap((names, index) => names.split(' ').map((name) => `${index + 1} ${name}`));
    const text = readFileSync(join(root, 'ARCHITECTURE.md'), 'utf8');
    const documented = [...text.matchAll(/^\|\s*(\d+)\s*\|\s*\[?`([\w-]+)\/`/gm)].map(
      (match) => `${match[1]} ${match[2]}`,
    );
    expect(documented).toEqual(enforced);
  });

  it('keeps ARCHITECTURE.md a map of at most 250 lines (detail goes to src/<folder>/README.md)', () => {
    expect(readFileSync(join(root, 'ARCHITECTURE.md'), 'utf8').split('\n').length).toBeLessThanOrEqual(250);
  });
});
