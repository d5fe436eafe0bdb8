import { describe, expect, it } from 'vitest';
import { chunkDocument } from './chunk-document.js';

describe('chunkDocument', () => {
  it('keeps every paragraph under the headings above it, and a table whole', () => {
    const text = '# Audit\n\nKeys rotate yearly.\n\n## Systems\n\n| a | b |\n|---|---|\n| 1 | 2 |\n';
    const chunks = chunkDocument({ text });
    expect(chunks.map((chunk) => [chunk.kind, chunk.heading, chunk.text])).toEqual([
      ['text', 'Audit', 'Keys rotate yearly.'],
      ['table', 'Audit > Systems', '| a | b |\n|---|---|\n| 1 | 2 |'],
    ]);
  });

  it('makes a chunk of a heading nothing is written under, so a title-only file can be found', () => {
    expect(chunkDocument({ text: '# Zeolite catalysts\n' })).toMatchObject([
      { kind: 'text', heading: 'Zeolite catalysts', text: '# Zeolite catalysts', start: 0 },
    ]);
    // An outline: the bare headings at the same level each get one; a heading with a deeper one
    // under it lives on in that one's context instead.
    const outline = chunkDocument({ text: '# Plan\n\n## Costs\n\n## Risks\n\nFloods.\n\n## Staff\n' });
    expect(outline.map((chunk) => [chunk.kind, chunk.heading, chunk.text])).toEqual([
      ['text', 'Plan > Costs', '## Costs'],
      ['text', 'Plan > Risks', 'Floods.'],
      ['text', 'Plan > Staff', '## Staff'],
    ]);
  });
});
