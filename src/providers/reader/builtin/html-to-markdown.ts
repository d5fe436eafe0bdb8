import { gfm } from '@joplin/turndown-plugin-gfm';
import TurndownService from 'turndown';

let service: TurndownService | undefined;

/** One Turndown instance, made on first use: GFM tables, strikethrough and task lists, fenced code. */
function markdownService(): TurndownService {
  if (service) return service;
  service = new TurndownService({
    headingStyle: 'atx',
    codeBlockStyle: 'fenced',
    bulletListMarker: '-',
    emDelimiter: '_',
    linkStyle: 'inlined',
  });
  service.use(gfm);
  // Images carry no text the agent can quote; their alt text alone is noise in a prompt.
  service.remove(['script', 'style', 'noscript', 'iframe', 'img', 'picture', 'button', 'form']);
  service.remove((node) => node.nodeName.toLowerCase() === 'svg');
  return service;
}

/**
 * HTML (a fragment such as Readability's content) to markdown. Takes a string, not a DOM node:
 * Turndown's GFM table rule needs the DOM Turndown parses itself.
 */
export function htmlToMarkdown(html: string): string {
  return markdownService()
    .turndown(html)
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}
