import { existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { detectDatasetFormat, readDataset } from './read-dataset.js';

const fixtures = fileURLToPath(new URL('../../../test/fixtures/eval', import.meta.url));
const fixture = (name: string) => join(fixtures, name);
const shared = fileURLToPath(new URL('../../../../shared/eval/qa', import.meta.url));

function tempFile(name: string, content: string): string {
  const file = join(mkdtempSync(join(tmpdir(), 'eval-dataset-')), name);
  writeFileSync(file, content);
  return file;
}

describe('readDataset: each benchmark in its published layout', () => {
  it('reads SimpleQA (metadata,problem,answer) with quoted metadata and commas inside questions', async () => {
    const dataset = await readDataset({ file: fixture('simpleqa.csv') });
    expect(dataset.format).toBe('simpleqa');
    expect(dataset.questions).toEqual([
      { id: '0', question: 'Who received the IEEE Frank Rosenblatt Award in 2010?', answer: 'Michio Sugeno' },
      {
        id: '1',
        question: "Who was awarded the Oceanography Society's Jerlov Award in 2018?",
        answer: 'Annick Bricaud',
      },
      {
        id: '2',
        question: "What's the name of the women's liberal arts college in Cambridge, Massachusetts?",
        answer: 'Radcliffe College',
      },
    ]);
  });

  it('reads FRAMES (id,Prompt,Answer,wikipedia_link_1...) with its own ids, trimming the prompt', async () => {
    const dataset = await readDataset({ file: fixture('frames.csv') });
    expect(dataset.format).toBe('frames');
    expect(dataset.questions.map(({ id, answer }) => ({ id, answer }))).toEqual([
      { id: '0', answer: 'Jane Ballou' },
      { id: '1', answer: '37th' },
    ]);
    expect(dataset.questions[0]!.question).toMatch(/^If my future wife .* future wife's name\?$/);
  });

  it('reads HotpotQA as exported by Hugging Face (context {title[], sentences[][]})', async () => {
    const dataset = await readDataset({ file: fixture('hotpotqa.json') });
    expect(dataset.format).toBe('hotpotqa');
    const [first] = dataset.questions;
    expect(first).toMatchObject({
      id: '0',
      question: 'Were Scott Derrickson and Ed Wood of the same nationality?',
      answer: 'yes',
      supportingTitles: ['Scott Derrickson', 'Ed Wood'],
    });
    expect(first!.context!.map((paragraph) => paragraph.title)).toEqual([
      'Scott Derrickson',
      'Ed Wood',
      'Tyler Bates',
    ]);
    // Sentences carry their own leading spaces; joined they read as the paragraph.
    expect(first!.context![0]!.text).toContain(
      'screenwriter and producer. He lives in Los Angeles, California.',
    );
  });

  it('reads HotpotQA in the original release layout (_id, [[title, sentences]]) the same way', async () => {
    const original = await readDataset({ file: fixture('hotpotqa-original.json') });
    const exported = await readDataset({ file: fixture('hotpotqa.json') });
    expect(original.format).toBe('hotpotqa');
    expect(original.questions[0]!.id).toBe('5a8b57f25542995d1e6f1371');
    expect(original.questions.map(({ id: _id, ...rest }) => rest)).toEqual(
      exported.questions.map(({ id: _id, ...rest }) => rest),
    );
  });

  it('reads BrowseComp-Plus lines (query_id, query, answer, document lists ignored)', async () => {
    const dataset = await readDataset({ file: fixture('browsecomp-plus.jsonl') });
    expect(dataset.format).toBe('browsecomp-plus');
    expect(dataset.questions.map(({ id, answer }) => ({ id, answer }))).toEqual([
      { id: '769', answer: 'Blue 27' },
      { id: '770', answer: 'Mirny Station' },
    ]);
  });

  it('reads plain JSON lines (question, answer), numbering lines without an id and skipping blank ones', async () => {
    const dataset = await readDataset({ file: fixture('plain.jsonl') });
    expect(dataset).toEqual({
      format: 'jsonl',
      questions: [
        { id: '0', question: 'What is the capital of Australia?', answer: 'Canberra' },
        { id: 'q-2', question: 'How many moons does Mars have?', answer: '2' },
      ],
    });
  });
});

describe('readDataset: format choice and bad input', () => {
  it('follows --format over the content, and says which column is missing when it does not fit', async () => {
    await expect(readDataset({ file: fixture('simpleqa.csv'), format: 'frames' })).rejects.toThrow(
      /the frames format needs a "Prompt" column \(found: metadata, problem, answer\)/,
    );
  });

  it('names the columns it knows when a CSV header is unknown', () => {
    expect(() => detectDatasetFormat('q,a\nx,y\n', 'mine.csv')).toThrow(
      /cannot tell the format of mine\.csv: a CSV header needs problem,answer \(SimpleQA\) or Prompt,Answer \(FRAMES\), found q,a .*--format/,
    );
  });

  it('names the line of a JSON lines file that is broken or lacks a field', async () => {
    const broken = tempFile('broken.jsonl', '{"question": "a?", "answer": "b"}\n{"question": "c?"\n');
    await expect(readDataset({ file: broken })).rejects.toThrow(/broken\.jsonl line 2 is not valid JSON/);
    const missing = tempFile('missing.jsonl', '{"question": "a?", "answer": "b"}\n{"question": "c?"}\n');
    await expect(readDataset({ file: missing })).rejects.toThrow(
      /missing\.jsonl line 2: needs question, answer/,
    );
  });

  it('says when the file is missing or holds no questions', async () => {
    await expect(readDataset({ file: '/nonexistent/simpleqa.csv' })).rejects.toThrow(
      'cannot read dataset /nonexistent/simpleqa.csv: no such file',
    );
    await expect(readDataset({ file: tempFile('empty.csv', 'metadata,problem,answer\n') })).rejects.toThrow(
      /holds no questions/,
    );
  });
});

// The full files of ../shared/eval (not part of the repository) when this checkout has them.
describe.skipIf(!existsSync(join(shared, 'simpleqa.csv')))('readDataset on the full benchmark files', () => {
  it('reads every row of SimpleQA, FRAMES and the HotpotQA sample', async () => {
    const counts = await Promise.all(
      ['simpleqa.csv', 'frames.csv', 'hotpotqa-dev-distractor-first100.json'].map(async (name) => {
        const dataset = await readDataset({ file: join(shared, name) });
        return [dataset.format, dataset.questions.length, new Set(dataset.questions.map((q) => q.id)).size];
      }),
    );
    expect(counts).toEqual([
      ['simpleqa', 4326, 4326],
      ['frames', 824, 824],
      ['hotpotqa', 100, 100],
    ]);
  });
});
