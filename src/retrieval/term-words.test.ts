import { describe, expect, it } from 'vitest';
import { TermWords } from './term-words.js';

describe('TermWords', () => {
  it('matches words at their start with a short inflection, numbers whole', () => {
    const words = ['direct', 'directed', 'director', 'directorship', 'indirect', 'fil', 'film', 'films'];
    words.push('15', '150', 'e15');
    const termWords = new TermWords(words);
    const matching = (term: string) => termWords.matching(term).map((id) => words[id]);
    expect(matching('direct')).toEqual(['direct', 'directed', 'director']);
    expect(matching('fil')).toEqual(['fil', 'film']);
    expect(matching('15')).toEqual(['15']);
    expect(matching('x')).toEqual([]);
  });

  it('finds words added after a term was first asked for', () => {
    const words = ['award'];
    const termWords = new TermWords(words);
    expect(termWords.matching('award')).toEqual([0]);
    words.push('awards', 'rewarded', 'awarded');
    expect(termWords.matching('award')).toEqual([0, 1, 3]);
    expect(termWords.matching('reward')).toEqual([2]);
  });
});
