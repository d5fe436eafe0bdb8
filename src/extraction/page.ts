/** A link found on a page, kept with its anchor text for URL ranking. */
export interface PageLink {
  url: string;
  text: string;
}

export interface Page {
  /** The URL asked for. */
  requestedUrl: string;
  /** The URL the content came from, after redirects. */
  url: string;
  title: string;
  /** Main content as markdown. */
  markdown: string;
  /** Main content as plain text; quotes are verified against it. */
  text: string;
  links: PageLink[];
  byline?: string;
  /** The site's or publisher's name (og:site_name, application-name), when the page says. */
  siteName?: string;
  /** The HTTP status the content came with, when the reader knows it. */
  status?: number;
  /** When the content was fetched (ISO 8601); a cached page keeps its first fetch's time. */
  fetchedAt?: string;
  /** ISO 8601 dates, when the page or the server says. */
  publishedAt?: string;
  modifiedAt?: string;
  /**
   * The page's rel=canonical URL when it names another (an AMP, print or syndicated copy naming
   * its original); page groups (retrieval/page-groups.ts) count the two as one source.
   */
  canonicalUrl?: string;
  contentType: string;
  /**
   * The page shows only a teaser behind a paywall or login wall (the publisher's schema.org mark,
   * or a short text asking to subscribe). Its text may still hold a fact or two.
   */
  paywalled?: boolean;
  /**
   * The HTML is an app shell whose text a script writes (little text, and an empty mount point, a
   * <noscript> asking for JavaScript, or nothing but scripts): a browser would see more.
   */
  emptyShell?: boolean;
  /**
   * Why the page came out (nearly) empty, when a reader knows: an app shell the builtin reader
   * does not render, one Chromium could not render, or one whose scripts wrote nothing while
   * Chromium waited. Said on the CLI, in read_url's result and in the agent's diary.
   */
  emptyReason?: string;
}
