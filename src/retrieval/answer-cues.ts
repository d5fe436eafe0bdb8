/**
 * What the answer to a question looks like, from its question word: a "who" question wants a
 * person (often "played by" / "voiced by" on a cast list), "when" a date or year, "how many" a
 * number, "where" a place ("in" or "at" before a capitalised name). A chunk that already matches
 * the question and also holds such a cue is more likely to hold the answer itself.
 *
 * A cue gives a strength in [0, 1]: 0 when the chunk shows nothing of the kind, 1 for a clear sign.
 */
export type AnswerCue = (chunkText: string) => number;

const roleBy = /\b(?:played|voiced|portrayed|performed|sung|written|directed|created|founded|led) by\b/i;
// "Patrick Breen as Larry", "Emma Watson as Belle": how cast lists pair an actor with a role.
const castLine = /\b[A-Z][\p{L}'-]+(?: [A-Z][\p{L}.'-]*)* as (?:the )?[A-Z]/u;
const personName = /\b[A-Z][a-z]+ (?:[A-Z]\. )?[A-Z][a-z]+\b/;
const yearOrDate =
  /\b(?:1[0-9]{3}|20[0-9]{2})\b|\b(?:January|February|March|April|May|June|July|August|September|October|November|December)\b/;
const number =
  /\b\d+\b|\b(?:one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|dozen|hundred|thousand|million)\b/i;
const place = /\b(?:in|at|near|from) (?:the )?[A-Z][a-z]+/;

const roleVerb = String.raw`\b(?:play(?:s|ed|ing)?|portray(?:s|ed|ing)?|voice[sd]?|voicing|star(?:s|red|ring)?|acts?|acted)\b`;
// "who plays Larry", "who voiced the mom", "Larry is played by who": the answer is an actor.
const roleQuestion = new RegExp(String.raw`\bwho(?:m)?\b.*${roleVerb}|${roleVerb}.*\bwho(?:m)?\b`, 'i');

/**
 * Any capitalised pair of words reads as a person, so on most pages nearly every chunk has one:
 * for questions about who plays a role, that weak sign counts for this share of a clear one.
 */
const namedPersonStrength = 0.3;

const cues: ReadonlyArray<[RegExp, AnswerCue]> = [
  [
    roleQuestion,
    (text) =>
      roleBy.test(text) || castLine.test(text) ? 1 : personName.test(text) ? namedPersonStrength : 0,
  ],
  [/\bwho(?:m|se)?\b/i, (text) => (roleBy.test(text) || personName.test(text) ? 1 : 0)],
  [/\b(?:when|what year|what date|how long ago)\b/i, (text) => (yearOrDate.test(text) ? 1 : 0)],
  [
    /\b(?:how (?:many|much|old|long|far|tall|big)|most|least|number of)\b/i,
    (text) => (number.test(text) ? 1 : 0),
  ],
  [/\bwhere\b/i, (text) => (place.test(text) ? 1 : 0)],
];

/** The cue for the question's type, or undefined when the question has no recognised type. */
export function answerCueFor(question: string): AnswerCue | undefined {
  for (const [pattern, cue] of cues) if (pattern.test(question)) return cue;
  return undefined;
}
