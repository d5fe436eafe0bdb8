export interface MatchableElement {
  getAttribute(name: string): string | null;
  matches(selector: string): boolean;
  textContent: string | null;
}

export interface MatchableDocument {
  querySelector(selector: string): MatchableElement | null;
  getElementsByTagName(name: string): ArrayLike<MatchableElement>;
}

/** `document.querySelector(selector)`, for one document that does not change while it is used. */
export type FirstMatch = (selector: string) => MatchableElement | null;

/**
 * What `document.querySelector` gives, for the many selectors the metadata readers try on a page
 * (meta tags, `<time>` elements), without walking the whole document once per selector: ~30
 * selectors, most of them absent from a page, each visited every node, about a seventh of a
 * 150 KB page's extraction. The elements a selector can name (its last compound's tag) are
 * listed once per tag, in document order; the selector's match is the first of them it matches.
 * `tag[attribute="value"]` and `tag[attribute]` compare the attribute itself (the attributes of
 * exactAttributes: HTML compares their values as written); another selector is tested with
 * `matches`, or asked of the document when its tag has many elements (each `matches` compiles it).
 * The same element as querySelector, always: only where it is looked for changes.
 */
export function firstMatchIn(document: MatchableDocument): FirstMatch {
  const byTag = new Map<string, ArrayLike<MatchableElement>>();
  const elements = (tag: string) => {
    let listed = byTag.get(tag);
    if (!listed) {
      listed = document.getElementsByTagName(tag);
      byTag.set(tag, listed);
    }
    return listed;
  };
  return (selector) => {
    const named = namedSelector(selector);
    if (named) {
      const candidates = elements(named.tag);
      for (let index = 0; index < candidates.length; index++) {
        const value = candidates[index]!.getAttribute(named.attribute);
        if (value !== null && (named.value === undefined || value === named.value)) return candidates[index]!;
      }
      return null;
    }
    const tag = subjectTag(selector);
    if (tag === undefined) return document.querySelector(selector);
    const candidates = elements(tag);
    if (candidates.length > maxMatchedCandidates) return document.querySelector(selector);
    for (let index = 0; index < candidates.length; index++) {
      if (candidates[index]!.matches(selector)) return candidates[index]!;
    }
    return null;
  };
}

/**
 * Attributes whose values a selector compares case for case in HTML (not in the HTML standard's
 * list of attributes compared without case, which css-select follows): `[name="DC.date"]` is
 * `getAttribute('name') === 'DC.date'`.
 */
const exactAttributes = new Set(['name', 'property', 'itemprop', 'pubdate', 'datetime']);

/** Past this many elements of its tag, a selector walks the document rather than compiling once per element. */
const maxMatchedCandidates = 32;

/** `meta[property="og:title"]` → { tag: 'meta', attribute: 'property', value: 'og:title' }; `time[pubdate]` without value. */
export function namedSelector(
  selector: string,
): { tag: string; attribute: string; value?: string } | undefined {
  const match = /^([a-z][a-z0-9]*)\[([a-z][a-z0-9:-]*)(?:="([^"\\]*)")?\]$/.exec(selector);
  if (!match || !exactAttributes.has(match[2]!)) return undefined;
  return { tag: match[1]!, attribute: match[2]!, ...(match[3] === undefined ? {} : { value: match[3] }) };
}

/**
 * The tag name a selector's last compound starts with (the element it names), when it is one
 * selector without quotes, pseudo-classes or escapes: `.posted-on time.published` → time.
 */
export function subjectTag(selector: string): string | undefined {
  if (/[,:\\"']/.test(selector)) return undefined;
  const last =
    selector
      .trim()
      .split(/\s*[\s>+~]\s*/)
      .at(-1) ?? '';
  return /^([a-z][a-z0-9]*)(?![a-z0-9-])/.exec(last)?.[1];
}
