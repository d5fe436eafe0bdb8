/**
 * A file name from a title or question, in ASCII so it fits any Content-Disposition header:
 * "Heat pumps in Europe, 2019–2024" → "heat-pumps-in-europe-2019-2024.pdf". Shared by the
 * server's report export and the page's own exports.
 */
export function downloadName(text: string, extension: string, fallback: string): string {
  const stem = text
    .normalize('NFKD')
    // Accents come apart from their letters: "Île" → "ile", not "i-le".
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 60)
    .replace(/-+$/, '');
  return `${stem || fallback}.${extension}`;
}
