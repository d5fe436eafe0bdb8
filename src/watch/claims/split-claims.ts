import { claimText, footnotesOf } from '../../research/write/locate-sentence.js';
import type { AnswerClaim, CitedAnswer } from './claim-types.js';

/**
 * The answer's claims: each sentence of its prose (headings, footnote definitions and code left
 * out), its footnote marks taken off and turned into the sources they cite.
 */
export function splitClaims({ answer, references }: CitedAnswer): AnswerClaim[] {
  const byIndex = new Map(references.map((reference) => [reference.index, reference]));
  const claims: AnswerClaim[] = [];
  let fenced = false;
  for (const line of answer.split('\n')) {
    if (/^\s*(```|~~~)/.test(line)) fenced = !fenced;
    if (fenced || /^\s*(#|\[\^\d+\]:|```|~~~|\|?\s*-{3,})/.test(line)) continue;
    const prose = line.replace(/^\s*(?:[-*+]|\d+[.)])\s+/, '').replace(/^>\s*/, '');
    for (const sentence of sentencesOf(prose)) {
      const text = claimText(sentence).replace(/\s+([.,;:!?])/g, '$1');
      // Too short to state anything, or a question (a report's follow-ups): not a claim.
      if (text.split(' ').length < 3 || text.endsWith('?')) continue;
      const sources = footnotesOf(sentence)
        .map((index) => byIndex.get(index))
        .filter((reference) => reference !== undefined)
        .map(({ url, quote, title }) => ({ url, quote, title }));
      claims.push({ text, sources });
    }
  }
  return claims;
}

/**
 * Sentences of one line of prose: a break after . ! ? (and any footnote marks that follow) before
 * a capital letter, a digit or a quote; not after a lone initial or a common abbreviation.
 */
function sentencesOf(text: string): string[] {
  const sentences: string[] = [];
  let start = 0;
  const boundary = /([.!?])((?:\[\^\d+\])*)\s+(?=[\p{Lu}\p{N}"“'(])/gu;
  for (const match of text.matchAll(boundary)) {
    const end = match.index + match[1]!.length + match[2]!.length;
    const before = text.slice(start, match.index);
    if (/(?:\b\p{Lu}|\b(?:Mr|Mrs|Ms|Dr|Prof|St|vs|etc|e\.g|i\.e|Inc|Ltd|Co|Jr|Sr|No|Fig))$/u.test(before))
      continue;
    sentences.push(text.slice(start, end));
    start = end;
  }
  sentences.push(text.slice(start));
  return sentences.map((sentence) => sentence.trim()).filter(Boolean);
}
