import { describe, expect, it } from 'vitest';
import { countFunctionWords, functionWordLanguage } from './function-words.js';
import { detectLanguage } from './language.js';

describe('detectLanguage', () => {
  it.each([
    // Trigrams alone called these French: their function words are English.
    ['What does the markup test page say?', 'English'],
    ['What did our 2023 audit say about key rotation?', 'English'],
    ['When was the Eiffel Tower built?', 'English'],
    ['Is Le Monde a reliable source about the election in Germany?', 'English'],
    ['Quelle est la capitale de la France ?', 'French'],
    ['Was ist der Unterschied zwischen TCP und UDP?', 'German'],
    ['¿Cuál es la montaña más alta de España?', 'Spanish'],
    ['Quem descobriu o Brasil e em que ano?', 'Portuguese'],
    ['Come si prepara il risotto alla milanese?', 'Italian'],
    ['Hoe werkt een warmtepomp in de winter?', 'Dutch'],
    ['Hur många invånare har Stockholm?', 'Swedish'],
    ['Кто написал Войну и мир?', 'Russian'],
    ['Яка столиця України?', 'Ukrainian'],
    ['東京の人口は何人ですか？', 'Japanese'],
    ['北京的人口是多少？', 'Chinese'],
  ])('names the language of %j', (question, name) => {
    const language = detectLanguage(question);
    expect(language.name).toBe(name);
    expect(language.rule).toContain(`in ${name}`);
  });

  it.each([
    'Tesla Q3 2024 deliveries',
    'Define entropy',
    // Cyrillic alone does not say Russian.
    'Хто написав Кобзар?',
  ])('names no language when %j does not tell', (question) => {
    const language = detectLanguage(question);
    expect(language.name).toBeUndefined();
    expect(language.rule).toBe('Write the answer and all reasoning in the same language as the question.');
  });

  it('keeps a configured language whatever the question', () => {
    expect(detectLanguage('Quelle est la capitale de la France ?', 'English').rule).toBe(
      'Write the answer and all reasoning in English.',
    );
  });
});

describe('function words', () => {
  it('counts a word two languages share for both, so a tie decides nothing', () => {
    expect(Object.fromEntries(countFunctionWords('in de'))).toMatchObject({ nld: 2, eng: 1 });
    expect(functionWordLanguage('is in')).toBeUndefined();
    expect(functionWordLanguage('what is')).toBe('eng');
    expect(functionWordLanguage('Paris')).toBeUndefined();
  });
});
