/**
 * Whether a page that loaded (HTTP 200) shows only a teaser behind a paywall or login wall. Two
 * signals: the publisher's own schema.org mark (`"isAccessibleForFree": false` in JSON-LD, which
 * news sites set for search engines), or a short main text that asks the reader to subscribe or
 * sign in to go on. A long article that ends with a newsletter prompt is not a paywall.
 */
const wallPrompts = new RegExp(
  [
    String.raw`(?:subscribe|sign in|log in|register)(?: now)? to (?:continue|keep|read|unlock|access)`,
    String.raw`to (?:continue|keep) reading,? (?:please )?(?:subscribe|sign in|log in|register|create)`,
    String.raw`(?:you(?:'ve| have)|you've) (?:reached|used) (?:your|all of your) (?:\w+ )?(?:free )?(?:article|story|stories|articles)`,
    String.raw`(?:article|content|story) is (?:only )?(?:available|reserved|exclusive) (?:to|for) (?:paying )?(?:subscribers|members)`,
    String.raw`(?:for|to) subscribers only`,
    String.raw`already a (?:subscriber|member)\?`,
  ].join('|'),
  'i',
);

/** Main text longer than this is taken as the article itself, whatever prompt it carries. */
export const maxTeaserChars = 2500;

export function showsPaywall(text: string, accessibleForFree: boolean | undefined): boolean {
  if (accessibleForFree === false) return true;
  return text.length <= maxTeaserChars && wallPrompts.test(text);
}

/** schema.org's isAccessibleForFree as JSON-LD writes it: a boolean, or "False"/"false" as text. */
export function readAccessibleForFree(value: unknown): boolean | undefined {
  if (typeof value === 'boolean') return value;
  if (typeof value === 'string' && /^(?:true|false)$/i.test(value.trim()))
    return value.trim().toLowerCase() === 'true';
  return undefined;
}
