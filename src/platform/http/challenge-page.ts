/**
 * Bot checks and challenge pages (Cloudflare, DataDome, PerimeterX, Imperva, hCaptcha walls): what
 * a site answers instead of the page when it takes us for a bot. Their text is never the page's
 * content, so readers refuse it as `page_blocked_by_bot_check` and the run lists the URL as
 * blocked. Judged from the status, the headers and the first bytes of the body.
 */

/** Markers only challenge pages carry (scripts, form ids, vendor resources): enough on their own. */
const vendorMarkers =
  /cf-challenge|cf_chl_|challenge-platform|cf-turnstile|captcha-delivery\.com|px-captcha|_incapsula_resource|hcaptcha\.com\/captcha|g-recaptcha.{0,200}(?:verify|robot)/i;

/** Words a challenge shows a person; on an error status they are enough, on a 200 only in a short page. */
const challengeWords =
  /just a moment(?:\.\.\.|…)|verify(?:ing)? (?:that )?you are (?:a )?human|checking (?:if the site connection is secure|your browser before accessing)|attention required!? \| cloudflare|enable javascript and cookies to continue|are you a robot\?|please complete the security check|press (?:&amp;|&) hold to confirm you are a human|access to this page has been denied/i;

/** Statuses bot checks answer with. */
const challengeStatuses = new Set([403, 429, 503]);

/** A 200 page longer than this (its visible text) is the article, whatever it says about robots. */
const maxChallengeTextChars = 1500;

export interface ChallengeInput {
  status: number;
  headers?: Pick<Headers, 'get'>;
  /** The body's first bytes as text (HTML or visible text). */
  body: string;
  /** The page's visible text, when known (a 200 page is judged by its length too). */
  visibleText?: string;
}

/** Why the response is a bot check (for the skipped list's detail), or undefined when it is not. */
export function detectChallenge(input: ChallengeInput): string | undefined {
  const mitigated = input.headers?.get('cf-mitigated');
  if (mitigated && /challenge/i.test(mitigated)) return `a Cloudflare challenge (HTTP ${input.status})`;
  const vendor = vendorMarkers.exec(input.body);
  const words = challengeWords.exec(input.body) ?? challengeWords.exec(input.visibleText ?? '');
  if (challengeStatuses.has(input.status)) {
    if (vendor || words) return describe(input.status, words?.[0] ?? vendor?.[0]);
    return undefined;
  }
  if (input.status < 200 || input.status >= 300) return undefined;
  const short = (input.visibleText ?? input.body).trim().length <= maxChallengeTextChars;
  if (short && (vendor || words)) return describe(input.status, words?.[0] ?? vendor?.[0]);
  return undefined;
}

function describe(status: number, marker: string | undefined): string {
  const shown = marker ? ` ("${marker.slice(0, 60)}")` : '';
  return `a bot check${shown} answered with HTTP ${status}`;
}
