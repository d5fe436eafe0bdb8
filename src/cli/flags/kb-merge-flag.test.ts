import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runCliInMemory } from '../../../test/helpers/run-cli-in-memory.js';
import { splitKbMergeFlag } from './kb-merge-flag.js';

const dir = mkdtempSync(join(tmpdir(), 'deepsearch-kb-flag-'));
writeFileSync(join(dir, 'notes'), 'an existing file without an extension');
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('splitKbMergeFlag: --kb [path] before the question', () => {
  it('gives the question back when --kb swallowed it (`ask --kb "what do our audits say?"`)', () => {
    expect(splitKbMergeFlag('what do our audits say?', [], dir)).toEqual({
      kb: true,
      words: ['what do our audits say?'],
    });
    // Unquoted: --kb took the first word only.
    expect(splitKbMergeFlag('what', ['do', 'audits', 'say?'], dir)).toEqual({
      kb: true,
      words: ['what', 'do', 'audits', 'say?'],
    });
  });

  it('keeps a value naming an existing file as the knowledge base, whatever its name', () => {
    expect(splitKbMergeFlag('notes', ['question'], dir)).toEqual({ kb: 'notes', words: ['question'] });
    expect(splitKbMergeFlag(true, ['question'], dir)).toEqual({ kb: true, words: ['question'] });
    expect(splitKbMergeFlag(undefined, ['question'], dir)).toEqual({ kb: undefined, words: ['question'] });
  });

  it('refuses a missing file that looks like one instead of merging a new, empty knowledge base', () => {
    expect(() => splitKbMergeFlag('team.sqlite', ['question'], dir)).toThrow(
      /no knowledge base at team\.sqlite/,
    );
    expect(() => splitKbMergeFlag('kbs/team', ['question'], dir)).toThrow(/no knowledge base at kbs\/team/);
  });
});

describe('ask and research with --kb before the question (runCli)', () => {
  // No local LLM discovery: with no LLM configured the command stops at that check.
  const run = (args: string[]) =>
    runCliInMemory(args, { env: { DEEPSEARCH_LOCAL_LLM_URLS: 'off' }, cwd: dir });

  it('a missing knowledge base file is one line and exit 2, and nothing is created', async () => {
    for (const command of ['ask', 'research']) {
      const result = await run([command, '--kb', 'missing.sqlite', 'a question']);
      expect(result.code).toBe(2);
      expect(result.stderr.trim().split('\n')).toEqual([
        expect.stringContaining('no knowledge base at missing.sqlite'),
      ]);
    }
    expect(() => writeFileSync(join(dir, 'missing.sqlite'), '', { flag: 'wx' })).not.toThrow();
  });

  it('the question given right after --kb is the question, not a missing one', async () => {
    for (const command of ['ask', 'research']) {
      const result = await run([command, '--kb', 'what do our audits say about key rotation?']);
      expect(result.stderr).not.toMatch(/missing (question|topic)/);
      // With no LLM configured it stops there, past the question.
      expect(result.stderr).toMatch(/LLM/);
    }
  });
});
