import { gfm } from '@joplin/turndown-plugin-gfm';
import TurndownService from 'turndown';
import { defaultContentLimits } from '../content-limits.js';
import { useLargeTableRules } from './large-table-rules.js';

/** Cells of a table above which it is written as plain rows (reader.extraction.maxTableCells). */
export const defaultMaxTableCells = defaultContentLimits.maxTableCells;

const services = new Map<number, TurndownService>();

/** One Turndown instance per table limit, made on first use: GFM tables, strikethrough and task lists, fenced code. */
function markdownService(maxTableCells: number): TurndownService {
  const made = services.get(maxTableCells);
  if (made) return made;
  const service = new TurndownService({
    headingStyle: 'atx',
    codeBlockStyle: 'fenced',
    bulletListMarker: '-',
    emDelimiter: '_',
    linkStyle: 'inlined',
  });
  service.use(gfm);
  useLargeTableRules(service, maxTableCells);
  // Images carry no text the agent can quote; their alt text alone is noise in a prompt.
  service.remove(['script', 'style', 'noscript', 'iframe', 'img', 'picture', 'button', 'form']);
  service.remove((node) => node.nodeName.toLowerCase() === 'svg');
  services.set(maxTableCells, service);
  return service;
}

export interface HtmlToMarkdownOptions {
  /** A table of more cells is written as plain rows, without the GFM plugin's alignment pass. */
  maxTableCells?: number;
}

/**
 * HTML (a fragment such as Readability's content) to markdown. Takes a string, not a DOM node:
 * Turndown's GFM table rule needs the DOM Turndown parses itself.
 */
export function htmlToMarkdown(html: string, options: HtmlToMarkdownOptions = {}): string {
  return markdownService(options.maxTableCells ?? defaultMaxTableCells)
    .turndown(html)
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}
