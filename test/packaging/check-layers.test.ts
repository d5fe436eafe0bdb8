import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';

const script = join(import.meta.dirname, '../../scripts/check-layers.mjs');

function check(root: string) {
  const run = spawnSync(process.execPath, [script, root], { encoding: 'utf8' });
  return { status: run.status, stdout: run.stdout, stderr: run.stderr };
}

/** A small src/ tree of the given files (path → text). */
function tree(files: Record<string, string>): string {
  const root = mkdtempSync(join(tmpdir(), 'deepsearch-layers-'));
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), text);
  }
  return root;
}

describe('the layer check run by npm test', () => {
  it("passes on the repository's src/", () => {
    const result = check(join(import.meta.dirname, '../../src'));
    expect(result.stderr).toBe('');
    expect(result.status).toBe(0);
  });

  it('fails on a cycle between two folders, naming the import that goes up', () => {
    const root = tree({
      'agent/loop.ts': "import type { Report } from '../research/report.js';\nexport const loop = 1;\n",
      'research/report.ts': "import { loop } from '../agent/loop.js';\nexport type Report = typeof loop;\n",
    });
    const result = check(root);
    expect(result.status).toBe(1);
    expect(result.stderr).toContain(
      'agent/loop.ts: imports ../research/report.js: agent/ may not import research/',
    );
    expect(result.stderr).not.toContain('research/report.ts');
  });

  it('fails on a lower layer importing a higher one, a dynamic import and a sideways one included', () => {
    const root = tree({
      'providers/search.ts': "export const load = () => import('../runtime/run.js');\n",
      'runtime/run.ts': 'export const run = 1;\n',
      'mcp/tool.ts': "export * from '../eval/judge.js';\n",
      'eval/judge.ts': 'export const judge = 1;\n',
      'index.ts': "export * from './runtime/run.js';\n",
    });
    const result = check(root);
    expect(result.status).toBe(1);
    expect(result.stderr).toContain(
      'providers/search.ts: imports ../runtime/run.js: providers/ may not import runtime/',
    );
    expect(result.stderr).toContain('mcp/tool.ts: imports ../eval/judge.js: mcp/ may not import eval/');
    expect(result.stderr).toContain('2 import(s) break the layering');
  });

  it('fails on a folder the layer list does not name, so a new folder gets a place in it', () => {
    const root = tree({
      'jobs/queue.ts': "import { run } from '../runtime/run.js';\n",
      'runtime/run.ts': '',
    });
    const result = check(root);
    expect(result.status).toBe(1);
    expect(result.stderr).toContain('folder jobs/ is not in the layer list');
  });

  it('fails on shipped code that imports the test runner', () => {
    const root = tree({
      'testing/fake.ts': "import { expect } from 'vitest';\nexport const fake = expect;\n",
    });
    const result = check(root);
    expect(result.status).toBe(1);
    expect(result.stderr).toContain('testing/fake.ts: imports vitest');
  });
});
