import { describe, expect, it } from 'vitest';
import { expansionEntities, namesIn } from './entity-expansion.js';

describe('namesIn', () => {
  it('keeps years and ordinals by default and leaves them out with numbers: false', () => {
    const text = 'The band toured Canada in 1987 and placed 11th at the Juno Awards.';
    expect(namesIn(text)).toEqual(expect.arrayContaining(['1987', '11th', 'Juno Awards']));
    const names = namesIn(text, { numbers: false });
    expect(names).toEqual(expect.arrayContaining(['Canada', 'Juno Awards']));
    expect(names).not.toContain('1987');
    expect(names).not.toContain('11th');
  });

  it("drops a possessive 's", () => {
    expect(namesIn("They joined Trump's campaign in Ohio.")).toEqual(['Trump', 'Ohio']);
  });

  it('offers a question-opening run without its first word, and that run’s parts', () => {
    const question = 'Were Local Road and Halvorsen Quartet both founded in Norway?';
    expect(namesIn(question)).not.toContain('Local Road');
    const names = namesIn(question, { withoutOpener: true });
    expect(names).toEqual(expect.arrayContaining(['Local Road', 'Halvorsen Quartet', 'Norway']));
  });
});

describe('expansionEntities', () => {
  const seed = 'The comedy was directed by Richard Wallace. Shirley Temple portrayed Corliss Archer.';
  const query = 'Who portrayed Corliss Archer in Kiss and Tell?';

  it('without context weight, names of one text weigh the same, in text order', () => {
    const entities = expansionEntities({ query, texts: [seed] });
    expect(entities.map((entity) => entity.text).slice(0, 2)).toEqual(['Richard Wallace', 'Shirley Temple']);
    expect(entities[0]!.weight).toBe(entities[1]!.weight);
  });

  it('with context weight, the name sharing a sentence with the question’s words comes first', () => {
    const entities = expansionEntities({ query, texts: [seed], contextWeight: 30 });
    expect(entities[0]).toEqual({ text: 'Shirley Temple', weight: 1 });
    const director = entities.find((entity) => entity.text === 'Richard Wallace')!;
    expect(director.weight).toBeLessThan(0.2);
  });

  it('weights a name by the rank of the text that names it', () => {
    const texts = ['Alpha Works builds boats.', 'Beta Yards builds ships.'];
    const byRank = expansionEntities({ query: 'who builds', texts });
    expect(byRank[0]!.text).toBe('Alpha Works');
  });
});
