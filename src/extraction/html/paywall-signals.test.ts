import { describe, expect, it } from 'vitest';
import { maxTeaserChars, readAccessibleForFree, showsPaywall } from './paywall-signals.js';

describe('showsPaywall', () => {
  it('trusts the schema.org mark over the text', () => {
    expect(showsPaywall('A long and complete article. '.repeat(200), false)).toBe(true);
    expect(showsPaywall('Subscribe to continue reading.', true)).toBe(true);
  });

  it('recognises the common wall prompts in a short text', () => {
    for (const prompt of [
      'Subscribe now to continue reading.',
      'To continue reading, please sign in or create a free account.',
      "You've reached your monthly free article limit.",
      'You have used all of your free articles this month.',
      'This article is only available to subscribers.',
      'For subscribers only.',
      'Already a member? Log in.',
    ])
      expect(showsPaywall(`The council met on Tuesday. ${prompt}`, undefined), prompt).toBe(true);
  });

  it('ignores prompts in a text long enough to be the article', () => {
    const article = 'The council met on Tuesday and voted. '.repeat(Math.ceil(maxTeaserChars / 30));
    expect(showsPaywall(`${article} Subscribe to continue reading our newsletter.`, undefined)).toBe(false);
    expect(showsPaywall('The council met on Tuesday and voted to close the bridge.', undefined)).toBe(false);
  });
});

describe('readAccessibleForFree', () => {
  it('reads booleans and the "True"/"False" strings sites write', () => {
    expect(readAccessibleForFree(false)).toBe(false);
    expect(readAccessibleForFree('False')).toBe(false);
    expect(readAccessibleForFree(' true ')).toBe(true);
    expect(readAccessibleForFree('no')).toBeUndefined();
    expect(readAccessibleForFree(undefined)).toBeUndefined();
  });
});
