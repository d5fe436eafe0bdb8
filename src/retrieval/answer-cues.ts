/**
 * What the answer to a question looks like, from its question word: a "who" question wants a
 * person (often "played by" / "voiced by" on a cast list), "when" a date or year, "how many" a
 * number, "where" a place ("in" or "at" before a capitalised name). A chunk that already matches
 * the question and also holds such a cue is more likely to hold the answer itself.
 */
export type AnswerCue = (chunkText: string) => boolean;

const roleBy = /\b(?:played|voiced|portrayed|performed|sung|written|directed|created|founded|led) by\b/i;
const personName = /\b[A-Z][a-z]+ (?:[A-Z]\. )?[A-Z][a-z]+\b/;
const yearOrDate =
  /\b(?:1[0-9]{3}|20[0-9]{2})\b|\b(?:January|February|March|April|May|June|July|August|September|October|November|December)\b/;
const number =
  /\b\d+\b|\b(?:one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|dozen|hundred|thousand|million)\b/i;
const place = /\b(?:in|at|near|from) (?:the )?[A-Z][a-z]+/;

const cues: ReadonlyArray<[RegExp, AnswerCue]> = [
  [/\bwho(?:m|se)?\b/i, (text) => roleBy.test(text) || personName.test(text)],
  [/\b(?:when|what year|what date|how long ago)\b/i, (text) => yearOrDate.test(text)],
  [/\b(?:how (?:many|much|old|long|far|tall|big)|most|least|number of)\b/i, (text) => number.test(text)],
  [/\bwhere\b/i, (text) => place.test(text)],
];

/** The cue for the question's type, or undefined when the question has no recognised type. */
export function answerCueFor(question: string): AnswerCue | undefined {
  for (const [pattern, cue] of cues) if (pattern.test(question)) return cue;
  return undefined;
}
