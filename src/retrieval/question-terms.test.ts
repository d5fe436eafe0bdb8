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
    expect(answerCueFor('who voices the beast')?.('the Beast ( voiced by Dan Stevens )')).toBe(1);
    expect(answerCueFor('when did it open')?.('it opened in 1889')).toBe(1);
    expect(answerCueFor('when did it open')?.('it opened long ago')).toBe(0);
    expect(answerCueFor('how many episodes')?.('ordered 10 episodes')).toBe(1);
    expect(answerCueFor('why is the sky blue')).toBeUndefined();
  });

  it('wants an actor for a question about who plays a role: a cast line beats any name', () => {
    const cue = answerCueFor('who plays larry in the series');
    expect(cue?.('Patrick Breen as Larry Your-Waiter, a member of the society')).toBe(1);
    expect(cue?.('Larry ( portrayed by Patrick Breen ) works as a waiter')).toBe(1);
    const weak = cue?.('Larry met Count Olaf at the restaurant');
    expect(weak).toBeGreaterThan(0);
    expect(weak).toBeLessThan(1);
    expect(cue?.('the waiter larry is seen at the cafe')).toBe(0);
    // Any name still counts fully when the question is not about a role.
    expect(answerCueFor('who founded the company')?.('Larry Page met Sergey Brin')).toBe(1);
    expect(answerCueFor('who casts the spell on the prince')?.('Larry Page met Sergey Brin')).toBe(1);
  });
});

describe('weightedQuestionTerms for the kind of answer', () => {
  it('adds place words to a "where" question, and nothing to others', () => {
    const where = weightedQuestionTerms('where was the show filmed');
    expect(weightOf(where, stem('location'))).toBe(0.5);
    expect(weightOf(where, stem('located'))).toBe(0.5);
    expect(weightOf(weightedQuestionTerms('somewhere over the rainbow'), stem('location'))).toBeUndefined();
  });
});
