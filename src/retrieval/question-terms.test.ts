import { describe, expect, it } from 'vitest';
import { answerCueFor } from './answer-cues.js';
import { weightedQuestionTerms } from './question-terms.js';
import { stem } from './tokenize.js';

const weightOf = (terms: ReturnType<typeof weightedQuestionTerms>, term: string) =>
  terms.find((entry) => entry.term === term)?.weight;

describe('weightedQuestionTerms', () => {
  it('weighs the page topic down and adds related words at a lower weight', () => {
    const terms = weightedQuestionTerms("who plays harry's mom", { topic: 'Harry Potter - wikipedia' });
    expect(weightOf(terms, 'harry')).toBeLessThan(1);
    expect(weightOf(terms, 'mom')).toBe(1);
    expect(weightOf(terms, stem('mother'))).toBe(0.5);
    expect(weightOf(terms, 'portray')).toBe(0.5);
  });

  it('expands phrases such as "come out" to release words', () => {
    const terms = weightedQuestionTerms('when did the movie come out');
    expect(weightOf(terms, stem('release'))).toBe(0.5);
  });
});

describe('answerCueFor', () => {
  it('recognises what the answer looks like from the question word', () => {
    expect(answerCueFor('who voices the beast')?.('the Beast ( voiced by Dan Stevens )')).toBe(true);
    expect(answerCueFor('when did it open')?.('it opened in 1889')).toBe(true);
    expect(answerCueFor('when did it open')?.('it opened long ago')).toBe(false);
    expect(answerCueFor('how many episodes')?.('ordered 10 episodes')).toBe(true);
    expect(answerCueFor('why is the sky blue')).toBeUndefined();
  });
});
