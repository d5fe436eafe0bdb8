/**
 * The commonest short words (articles, question words, auxiliaries, prepositions) of the languages
 * (in Latin script, and Russian/Ukrainian) that `franc` confuses on short questions: "What did our 2023 audit say about key
 * rotation?" reads as French to a trigram model, but "what", "did", "our", "about" are English.
 * Words two languages share count for both, so only a clear majority decides.
 */
const wordsByLanguage: Readonly<Record<string, string>> = {
  eng: 'the what who whom whose which when where why how is are was were does did do of and to in on for with about our my your it this that these those from by an be been has have had can could should would will not or than there their',
  fra: 'le la les des du une un est sont quel quelle quels quelles qui que quoi comment pourquoi où quand et pour dans avec sur pas ce cette ces au aux il elle ont nos notre leur',
  deu: 'der die das den dem des ein eine einen ist sind war wer was wie wann wo warum welche welcher welches und mit für von auf nicht hat haben im zu über gibt es sich',
  spa: 'el la los las del un una es son qué que quién quiénes cuál cuáles cómo dónde cuándo por para con y en más se lo hay fue entre sus',
  por: 'o a os as do da dos das um uma é são qual quais quem como onde quando por para com e em no na não foi entre seu sua',
  ita: 'il lo la gli le del della dei di un una è sono chi che cosa quale quali come dove quando perché per con e in non ha nel nella',
  nld: 'de het een is zijn wie wat welke hoe waar wanneer waarom van en voor met op niet heeft in dat er ook',
  swe: 'och är det en ett som vad vem hur var när varför av för med på inte har många den de om',
  dan: 'og er det en et som hvad hvem hvordan hvor hvornår hvorfor af for med på ikke har mange den de om',
  nob: 'og er det en et som hva hvem hvordan hvor når hvorfor av for med på ikke har mange den de om',
  pol: 'i w z na do nie jest są to jak kto co gdzie kiedy dlaczego który która które się czy od dla',
  ces: 'a v z na do ne je jsou to jak kdo co kde kdy proč který která které se od pro',
  ron: 'și în cu la de nu este sunt care ce cine cum unde când de ce pentru un o din',
  tur: 've bir bu ne kim nasıl nerede neden hangi ile için mi mı mu mü değil var',
  ind: 'dan yang di ke dari ini itu apa siapa bagaimana dimana kapan mengapa untuk dengan tidak adalah',
  rus: 'кто что где когда почему как какой какая какие это в на и не с по для из от был была было есть ли',
  ukr: 'хто що де коли чому як який яка які це в на і й не з по для від та був була було є чи',
  vie: 'và là của có không những các một này đó gì ai như thế nào ở đâu khi tại sao',
};

const lexicon = new Map<string, string[]>();
for (const [language, words] of Object.entries(wordsByLanguage)) {
  for (const word of words.split(' ')) {
    const languages = lexicon.get(word) ?? [];
    languages.push(language);
    lexicon.set(word, languages);
  }
}

/** How many of the text's words are function words of each language (ISO 639-3 codes). */
export function countFunctionWords(text: string): Map<string, number> {
  const counts = new Map<string, number>();
  for (const word of text.toLowerCase().match(/\p{L}+/gu) ?? []) {
    for (const language of lexicon.get(word) ?? []) counts.set(language, (counts.get(language) ?? 0) + 1);
  }
  return counts;
}

/**
 * The language whose function words clearly dominate the text: at least two of them, and more
 * than any other language has. Undefined when the words don't decide (few, or a tie).
 */
export function functionWordLanguage(text: string): string | undefined {
  const ranked = [...countFunctionWords(text)].sort((a, b) => b[1] - a[1]);
  const [best, second] = ranked;
  if (!best || best[1] < 2) return undefined;
  if (second && second[1] >= best[1]) return undefined;
  return best[0];
}
