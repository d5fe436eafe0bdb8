import { describe, expect, it } from 'vitest';
import { createFieldStreamer } from './create-field-streamer.js';

function feed(path: string[], pieces: string[]): string[] {
  const streamer = createFieldStreamer(path);
  return pieces.map((piece) => streamer.push(piece));
}

function chunks(text: string, size: number): string[] {
  const out: string[] = [];
  for (let offset = 0; offset < text.length; offset += size) out.push(text.slice(offset, offset + size));
  return out;
}

describe('createFieldStreamer', () => {
  const reply = JSON.stringify({
    think: 'The "text" key appears here too: {"text": "no"}',
    answer: { references: [{ url: 'u', text: 'not this' }], text: 'Paris is the "capital".\nSee [^1].' },
  });

  it('gives back the decoded text of the field at the path as it grows, whatever the chunking', () => {
    for (const size of [1, 3, 7, 64]) {
      const deltas = feed(['answer', 'text'], chunks(reply, size)).filter(Boolean);
      expect(deltas.join('')).toBe('Paris is the "capital".\nSee [^1].');
      if (size < 8) expect(deltas.length).toBeGreaterThan(3);
    }
  });

  it('decodes unicode escapes split across chunks', () => {
    const text = '{"answer":{"text":"caf\\u00e9 \\ud83d\\ude00"}}';
    expect(feed(['answer', 'text'], chunks(text, 2)).join('')).toBe('café 😀');
  });

  it('skips a think block and a fence before the object', () => {
    const text =
      '<think>maybe {"answer": {"text": "wrong"}}</think>\n```json\n{"answer":{"text":"right"}}\n```';
    expect(feed(['answer', 'text'], chunks(text, 5)).join('')).toBe('right');
  });

  it('follows array indexes in the path', () => {
    const text = '{"items":[{"t":"a"},{"t":"b"}]}';
    expect(feed(['items', '1', 't'], [text]).join('')).toBe('b');
  });

  it('follows the first of several paths the reply writes to, and only that one', () => {
    const nested = '{"think":"t","step":{"action":"answer","answer":{"text":"nested"}}}';
    const flat = '{"think":"t","action":"answer","answer":{"text":"flat"},"step":{"answer":{"text":"no"}}}';
    const follow = (text: string) => {
      const streamer = createFieldStreamer(['step', 'answer', 'text'], [['answer', 'text']]);
      return chunks(text, 3)
        .map((piece) => streamer.push(piece))
        .join('');
    };
    expect(follow(nested)).toBe('nested');
    expect(follow(flat)).toBe('flat');
  });
});
