import { describe, expect, it } from 'vitest';
import { expandHops, type HopSource } from './hop-expansion.js';

// Three hops: the question names the album; its paragraph names the singer, whose paragraph names
// the town, whose paragraph holds the answer. Only the first shares words with the question.
const passages = [
  'Blue Harbour is a 1971 album by the singer Mara Quell, recorded in one week.',
  'Mara Quell grew up in the town of Vessel Creek before moving to the coast.',
  'Vessel Creek lies on the Orrin river; its mayor is Tobias Ander.',
  'Copper Lane is a street with shops and a small museum.',
];
const lower = passages.map((text) => text.toLowerCase());
const source: HopSource = {
  text: (id) => passages[id]!,
  linked: (name) =>
    lower.flatMap((text, id) => (text.includes(name.toLowerCase()) ? [{ id, score: 1 }] : [])),
};
const question = 'Who is the mayor of the hometown of the singer of Blue Harbour?';

describe('expandHops', () => {
  it('follows the best passage and then the one it reached, so a third hop is scored', () => {
    const hops = expandHops({ question, scores: new Map([[0, 2]]), source });
    expect(hops.followed.slice(0, 2)).toEqual([0, 1]);
    expect(hops.scores.get(1)).toBeGreaterThan(0);
    expect(hops.scores.get(2)).toBeGreaterThan(0);
    expect(hops.scores.has(3)).toBe(false);
    expect(hops.reached.get(2)).toMatchObject({ from: 1, entity: 'Vessel Creek' });
    expect(hops.entities).toEqual(expect.arrayContaining(['Mara Quell', 'Vessel Creek']));
    // A hop never scores above the passage that led to it.
    expect(hops.scores.get(2)!).toBeLessThanOrEqual(hops.scores.get(1)!);
  });

  it('stops after the rounds asked for', () => {
    const hops = expandHops({ question, scores: new Map([[0, 2]]), source, rounds: 1 });
    expect(hops.followed).toEqual([0]);
    expect(hops.scores.has(1)).toBe(true);
    expect(hops.scores.has(2)).toBe(false);
  });

  it('pools the names of a round, takes at most linksPerName links and lets the caller raise scores', () => {
    const calls: Array<{ id: number; fromPosition: number; rank: number }> = [];
    const many: HopSource = {
      ...source,
      linked: (name) => (name === 'Mara Quell' ? [0, 1, 3].map((id) => ({ id, score: 4 - id })) : []),
    };
    const hops = expandHops({
      question,
      scores: new Map([
        [2, 3],
        [0, 2],
      ]),
      source: many,
      rounds: 1,
      width: 2,
      linksPerName: 1,
      raise(link) {
        calls.push({ id: link.id, fromPosition: link.fromPosition, rank: link.rank });
        return link.current + 0.5;
      },
    });
    expect(hops.followed).toEqual([2, 0]);
    // Passage 0 is followed, so the name's first link that is not is passage 1, at rank 1.
    expect(calls).toEqual([{ id: 1, fromPosition: 1, rank: 1 }]);
    expect(hops.scores.get(1)).toBe(0.5);
  });
});
