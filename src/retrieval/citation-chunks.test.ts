import { describe, expect, it } from 'vitest';
import { looksLikeCitation } from './citation-chunks.js';

describe('looksLikeCitation', () => {
  it('recognises bibliography entries in the forms pages write them', () => {
    for (const entry of [
      "`` Lost In Space : Molly Parker To Star In Netflix Series Remake '' . Deadline Hollywood . Retrieved October 8 , 2017 .",
      'Smith, J. "Ocean tides". Nature. Retrieved 12 May 2017.',
      '"Tides explained". NOAA. Retrieved 2019-03-04.',
      'Jump up ^ Kroll , Justin ( April 21 , 2015 ) .',
      'Archived from the original on 20 December 2008.',
      'Medical Education. 36 (12): 1176–1181. doi:10.1046/j.1365-2923.2002.01376.x. PMID 12472752.',
      "Rowling, J.K. (1997). Philosopher's Stone. Bloomsbury. ISBN 978-0-7475-3269-9.",
    ])
      expect(looksLikeCitation(entry), entry).toBe(true);
  });

  it('leaves prose alone, even prose about retrieving and archives', () => {
    for (const prose of [
      'The dog retrieved the ball in 2017 and was praised for it.',
      'The archive holds letters from 1850 to 1920.',
      'Sibongile Mlambo as Angela Goddard, a fellow survivor struggling after the attack.',
      'Production on the first season began in February 2017, in Vancouver.',
    ])
      expect(looksLikeCitation(prose), prose).toBe(false);
  });
});
