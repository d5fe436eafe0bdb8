/**
 * Whether a chunk reads like a bibliography entry rather than prose: "Retrieved 12 May 2017",
 * "Archived from the original", "doi:", "ISBN", "Jump up ^". Reference lists repeat the page's
 * words in every cited title, so they match questions well and answer them poorly.
 */
const citationMarkers =
  /\b(?:Retrieved|Accessed|Archived)(?: from the original)?(?: on)? (?:\d{1,2} )?(?:[A-Z][a-z]+ )?(?:\d{1,2} ?, )?(?:1[89]|20)\d\d\b|\bArchived from the original\b|\bdoi ?: ?10\.|\bISBN(?:-1[03])? ?:? ?[\d-]{9}|\bPMID ?:? ?\d|\bJump up\b|\bRetrieved (?:\d{4}|[A-Z][a-z]+ \d)/;

export function looksLikeCitation(text: string): boolean {
  return citationMarkers.test(text);
}
