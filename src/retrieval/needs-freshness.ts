const recencyWords =
  /(?<!\p{L})(latest|newest|current(ly)?|today|tonight|now|recent(ly)?|this (week|month|year|season)|breaking|news|price|prices|stock|forecast|weather|score|standings|release date|upcoming|aktuell|heute|neueste|actuel(le)?|aujourd'hui|dernier|derni[eè]re|actual(mente)?|hoy|[uú]ltimo|[uú]ltima|attuale|oggi|сейчас|сегодня|последн\p{L}*|текущ\p{L}*)(?!\p{L})/iu;
// JavaScript's \b knows only ASCII letters: lookarounds on \p{L} work for Cyrillic and accents too.
const cjkRecency = /(最新|今日|现在|目前|現在|今年|最近)/u;

/**
 * Whether a question asks about something recent, so fresher pages should rank higher: words for
 * "latest", "current", "today", prices and news in a few languages, or a year that is this one or
 * last. A cheap signal for URL ranking; the evaluator's freshness criterion is the stricter check.
 */
export function needsFreshness(question: string, today: Date): boolean {
  if (recencyWords.test(question) || cjkRecency.test(question)) return true;
  const year = today.getUTCFullYear();
  for (const match of question.matchAll(/\b(19|20)\d{2}\b/g)) {
    const mentioned = Number(match[0]);
    if (mentioned >= year - 1) return true;
  }
  return false;
}
