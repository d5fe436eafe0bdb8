/**
 * Milliseconds since the epoch (NaN when unreadable). An ISO date, what the providers give, counts
 * from its day's midnight UTC, its time of day ignored (freshness is reckoned in days), and is
 * read by char code: the general parser is slow on thousands of dates. Anything else goes to
 * Date.parse().
 */
export function parseDate(text: string): number {
  if (text.length < 10 || text.charCodeAt(4) !== 45 || text.charCodeAt(7) !== 45) return Date.parse(text);
  const year = digitsAt(text, 0, 4);
  const month = digitsAt(text, 5, 2);
  const day = digitsAt(text, 8, 2);
  // Date.UTC() reads years 0-99 as 1900-1999; such dates, and digits that are not there, take the slow path.
  if (year >= 100 && month >= 1 && month <= 12 && day >= 0)
    return daysSinceEpoch(year, month, day) * 86_400_000;
  const time = Date.UTC(Number(text.slice(0, 4)), Number(text.slice(5, 7)) - 1, Number(text.slice(8, 10)));
  return Number.isNaN(time) ? Date.parse(text) : time;
}

/** The number the `count` ASCII digits at `from` spell, or -1. */
function digitsAt(text: string, from: number, count: number): number {
  let value = 0;
  for (let index = from; index < from + count; index++) {
    const digit = text.charCodeAt(index) - 48;
    if (digit < 0 || digit > 9) return -1;
    value = value * 10 + digit;
  }
  return value;
}

/**
 * Days from 1970-01-01 to a proleptic Gregorian date, as Date.UTC() counts them (a day past the
 * month's end runs into the next month); H. Hinnant's days_from_civil.
 */
function daysSinceEpoch(year: number, month: number, day: number): number {
  const shiftedYear = month <= 2 ? year - 1 : year;
  const era = Math.floor(shiftedYear / 400);
  const yearOfEra = shiftedYear - era * 400;
  const dayOfYear = Math.floor((153 * (month > 2 ? month - 3 : month + 9) + 2) / 5) + day - 1;
  const dayOfEra = yearOfEra * 365 + Math.floor(yearOfEra / 4) - Math.floor(yearOfEra / 100) + dayOfYear;
  return era * 146_097 + dayOfEra - 719_468;
}
