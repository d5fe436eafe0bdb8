import { describe, expect, it } from 'vitest';
import { bestMatchingSentence, findQuote } from './find-quote.js';
import { foldText } from './match-text.js';

const page = `Bong Joon-ho's  "Parasite" premiered at the Cannes Film Festival on 21 May 2019,
where it won the Palme d’Or. It later won Best Picture at the 92nd Academy Awards.
Green Book won Best Picture at the 91st Academy Awards; it was directed by Peter Farrelly.`;

describe('findQuote', () => {
  it('finds a quote ignoring case, whitespace and punctuation, returning the page’s own text', () => {
    const match = findQuote('parasite premiered at the cannes film festival on 21 may 2019', page);
    expect(match?.kind).toBe('exact');
    expect(match?.quote).toBe('Parasite" premiered at the Cannes Film Festival on 21 May 2019');
    expect(page.slice(match!.start, match!.end)).toBe(match!.quote);
  });

  it('tolerates curly versus straight quotes and dashes', () => {
    expect(findQuote("won the Palme d'Or", page)?.quote).toBe('won the Palme d’Or');
  });

  it('matches an elided quote piece by piece, in order', () => {
    const match = findQuote('Green Book won Best Picture ... directed by Peter Farrelly', page);
    expect(match?.quote).toBe('Green Book won Best Picture … directed by Peter Farrelly');
  });

  it('never runs across blocks: a heading glued to its paragraph is cut off, a wrapped line is not', () => {
    const article =
      'Varnholt Observatory\nFounding\nThe Varnholt Observatory was founded in 1893 by the Kestrel Trust.\nInstruments\nIts telescope dates from 1911.';
    expect(findQuote('Founding The Varnholt Observatory was founded in 1893', article)?.quote).toBe(
      'The Varnholt Observatory was founded in 1893',
    );
    expect(findQuote('by the Kestrel Trust. Instruments', article)?.quote).toBe('by the Kestrel Trust.');
    // A PDF's hard-wrapped prose: the break inside the sentence is not a block's end.
    const wrapped =
      'The observatory was founded in 1893 by a society of amateur astronomers from the\nKestrel Trust, who raised the money for its first telescope.';
    expect(findQuote('amateur astronomers from the Kestrel Trust, who raised', wrapped)?.quote).toBe(
      'amateur astronomers from the\nKestrel Trust, who raised',
    );
  });

  it('rejects a quote that is not on the page, or whose pieces are out of order', () => {
    expect(findQuote('Parasite was directed by Quentin Tarantino', page)).toBeUndefined();
    expect(findQuote('directed by Peter Farrelly ... Green Book won', page)).toBeUndefined();
    expect(findQuote('   ...  ', page)).toBeUndefined();
  });

  it('works on pre-folded text (cached per page)', () => {
    expect(findQuote('92nd academy awards', foldText(page))?.quote).toBe('92nd Academy Awards');
  });
});

describe('bestMatchingSentence', () => {
  it('returns the sentence holding most of the claim’s terms', () => {
    const match = bestMatchingSentence('Green Book directed by Peter Farrelly won Best Picture', page);
    expect(match?.kind).toBe('sentence');
    expect(match?.quote).toMatch(/^Green Book won Best Picture.*Peter Farrelly\.$/);
  });

  it('returns nothing when no sentence is close enough', () => {
    expect(bestMatchingSentence('The Eiffel Tower is in Paris', page)).toBeUndefined();
  });
});
