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

  it("fails inside server/ on a sub-folder importing a higher one or another route's folder", () => {
    const root = tree({
      'server/http/error.ts': "import { slot } from '../concurrency/slot.js';\nexport const error = slot;\n",
      'server/concurrency/slot.ts': 'export const slot = 1;\n',
      'server/routes/responses/route.ts': "import { chat } from '../chat-completions/route.js';\n",
      'server/routes/chat-completions/route.ts':
        "import { error } from '../../http/error.js';\nexport const chat = error;\n",
      'server/jobs/queue.ts': "import { error } from '../http/error.js';\n",
      'server/server-app.ts': "import { chat } from './routes/chat-completions/route.js';\n",
    });
    const result = check(root);
    expect(result.status).toBe(1);
    expect(result.stderr).toContain(
      'server/http/error.ts: imports ../concurrency/slot.js: server/http/ may not import server/concurrency/',
    );
    expect(result.stderr).toContain(
      'server/routes/responses/route.ts: imports ../chat-completions/route.js: server/routes/responses/ may not import server/routes/chat-completions/',
    );
    expect(result.stderr).toContain('folder server/jobs/ is not in the layer list');
    expect(result.stderr).toContain('3 import(s) break the layering');
  });

  it("fails inside cli/ on a command importing another command's folder or a shared folder importing up", () => {
    const root = tree({
      'cli/commands/resume/run-resume.ts': "import { answer } from '../ask/run-ask.js';\n",
      'cli/commands/ask/run-ask.ts':
        "import { print } from '../../output/print.js';\nexport const answer = print;\n",
      'cli/output/print.ts': "import { setup } from '../setup/setup.js';\nexport const print = setup;\n",
      'cli/setup/setup.ts': 'export const setup = 1;\n',
    });
    const result = check(root);
    expect(result.status).toBe(1);
    expect(result.stderr).toContain(
      'cli/commands/resume/run-resume.ts: imports ../ask/run-ask.js: cli/commands/resume/ may not import cli/commands/ask/',
    );
    expect(result.stderr).toContain(
      'cli/output/print.ts: imports ../setup/setup.js: cli/output/ may not import cli/setup/',
    );
    expect(result.stderr).toContain('2 import(s) break the layering');
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
