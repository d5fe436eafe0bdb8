import { overLimitError } from '../content-limits.js';
import { htmlNestingDepth } from './html-nesting-depth.js';

/** Refuses HTML whose elements nest deeper than limits.maxNestingDepth, before it is parsed. */
export function assertNestingDepth(
  html: string,
  options: { providerId: string; url: string; limits: { maxNestingDepth: number } },
): void {
  const { maxNestingDepth } = options.limits;
  if (htmlNestingDepth(html, maxNestingDepth) <= maxNestingDepth) return;
  throw overLimitError(`${options.url} nests its elements more than ${maxNestingDepth} deep`, {
    providerId: options.providerId,
    limit: 'maxNestingDepth',
  });
}
