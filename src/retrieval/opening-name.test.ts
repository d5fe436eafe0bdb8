import { describe, expect, it } from 'vitest';
import { openingNameLength } from './opening-name.js';

const name = (sentence: string) => sentence.slice(0, openingNameLength(sentence)).trim();

describe('openingNameLength', () => {
  it('reads the name a sentence opens with, up to a bracket, a comma or is/was/has', () => {
    expect(name('Henry Roth (February 8, 1906 – October 13, 1995) was an American novelist.')).toBe(
      'Henry Roth',
    );
    expect(name('Kansas Song is a fight song of the University of Kansas.')).toBe('Kansas Song');
    expect(name('Robert Erskine Childers DSC, known as Erskine Childers, was a writer.')).toBe(
      'Robert Erskine Childers DSC',
    );
    expect(name('The Beatles were an English rock band formed in Liverpool.')).toBe('The Beatles');
    expect(name('University of Oxford has no known date of foundation.')).toBe('University of Oxford');
    expect(name('Apollo 11 was the first crewed landing on the Moon.')).toBe('Apollo 11');
  });

  it('finds nothing when the sentence opens with a pronoun, a preposition or a common noun', () => {
    expect(openingNameLength('He was born in Leeds and studied law.')).toBe(0);
    expect(openingNameLength('In 1990, the company moved to Oslo.')).toBe(0);
    expect(openingNameLength('The film was released in 1990.')).toBe(0);
    expect(openingNameLength('The station is closed on Sundays.')).toBe(0);
    expect(openingNameLength('Trains ran twice a day until 1960.')).toBe(0);
    expect(openingNameLength('1990 was a dry year.')).toBe(0);
  });

  it('finds nothing when the name would run past eight words', () => {
    expect(
      openingNameLength('North South East West Upper Lower Middle Outer Inner Road is a long street.'),
    ).toBe(0);
  });
});
