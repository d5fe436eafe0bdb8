import type { Reference } from '../../events/deep-search-result.js';
import { urlKey } from '../../retrieval/normalize-url.js';

/**
 * One numbering for a whole report: each text's own [^n] markers are rewritten to the index of
 * the same reference (URL and quote) in the report's list, adding it when new. The pages carrying
 * the same story (`alsoAt`, verify-references.ts) are merged when a reference comes twice.
 */
export class ReportReferences {
  readonly list: Reference[] = [];
  private readonly byKey = new Map<string, number>();

  /** Renumbers `markdown`'s footnotes from its `references` into this list. */
  adopt(markdown: string, references: readonly Reference[]): string {
    const local = new Map<number, number>();
    for (const reference of references) local.set(reference.index, this.add(reference));
    return markdown.replace(/\[\^(\d+)\]/g, (_match, number: string) => {
      const index = local.get(Number(number));
      return index === undefined ? '' : `[^${index}]`;
    });
  }

  add(reference: Reference): number {
    const key = `${urlKey(reference.url)}|${reference.quote}`;
    const known = this.byKey.get(key);
    if (known !== undefined) {
      this.mergeCopies(this.list[known - 1]!, reference.alsoAt);
      return known;
    }
    const index = this.list.length + 1;
    this.list.push({ ...reference, index });
    this.byKey.set(key, index);
    return index;
  }

  private mergeCopies(kept: Reference, alsoAt: readonly string[] | undefined): void {
    const added = (alsoAt ?? []).filter((url) => url !== kept.url && !kept.alsoAt?.includes(url));
    if (added.length) kept.alsoAt = [...(kept.alsoAt ?? []), ...added];
  }
}
