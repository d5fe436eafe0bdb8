/** A source as the answer's footnotes cite it: the answer's `references` or a report's. */
export interface SourceRef {
  index: number;
  url: string;
  /** Other pages carrying the same story (one source), when the run found copies. */
  alsoAt?: string[];
  title: string;
  quote: string;
  quoteKind?: 'exact' | 'sentence';
  /** When the run read the source (ISO 8601), once the run's evidence is loaded: its snapshot opens. */
  readAt?: string;
}

const definitionLine = /^ {0,3}\[\^[^\]\s]+\]:.*(?:\n(?: {4}|\t).*)*\n?/gm;

/**
 * Removes `[^n]: ...` definitions: the page shows sources from `references` (whose quotes were
 * verified), and marked would otherwise take `[^1]: https://...` for a link definition.
 */
export function stripFootnoteDefinitions(markdown: string): string {
  return markdown.replace(definitionLine, '');
}

/** Splits text into plain parts and footnote numbers: "a[^1] b" → ["a", 1, " b"]. */
export function splitFootnoteMarkers(text: string): Array<string | number> {
  const parts: Array<string | number> = [];
  let last = 0;
  for (const match of text.matchAll(/\[\^(\d{1,4})\]/g)) {
    if (match.index > last) parts.push(text.slice(last, match.index));
    parts.push(Number(match[1]));
    last = match.index + match[0].length;
  }
  if (last < text.length) parts.push(text.slice(last));
  return parts;
}

/** The host a card or popover shows, without "www."; the raw text when it is not a URL. */
export function hostOf(url: string): string {
  try {
    return new URL(url).hostname.replace(/^www\./, '');
  } catch {
    return url;
  }
}

/** Only http(s) links become clickable: a `javascript:` or `data:` URL from a page stays text. */
export function safeHref(url: string): string | undefined {
  try {
    const parsed = new URL(url);
    return parsed.protocol === 'http:' || parsed.protocol === 'https:' ? parsed.href : undefined;
  } catch {
    return undefined;
  }
}

/** "also at 2 sites: b.example, c.example": the copies of a source, as the card's small print. */
export function alsoAtText(urls: readonly string[] | undefined): string {
  if (!urls?.length) return '';
  const hosts = [...new Set(urls.map(hostOf))];
  return `also at ${urls.length} site${urls.length === 1 ? '' : 's'}: ${hosts.slice(0, 3).join(', ')}${hosts.length > 3 ? `, +${hosts.length - 3}` : ''}`;
}

/** References from a result or a research report, whatever their exact shape, as SourceRefs. */
export function toSourceRefs(references: unknown): SourceRef[] {
  if (!Array.isArray(references)) return [];
  return references.flatMap((item, position): SourceRef[] => {
    if (typeof item !== 'object' || item === null) return [];
    const record = item as Record<string, unknown>;
    const url = typeof record.url === 'string' ? record.url : '';
    if (!url) return [];
    const copies = Array.isArray(record.alsoAt) ? record.alsoAt : record.also_at;
    const alsoAt = Array.isArray(copies)
      ? copies.filter((copy): copy is string => typeof copy === 'string')
      : [];
    return [
      {
        index: typeof record.index === 'number' ? record.index : position + 1,
        url,
        title: typeof record.title === 'string' && record.title ? record.title : hostOf(url),
        quote: typeof record.quote === 'string' ? record.quote : '',
        quoteKind: record.quoteKind === 'sentence' ? 'sentence' : 'exact',
        ...(alsoAt.length ? { alsoAt } : {}),
      },
    ];
  });
}
