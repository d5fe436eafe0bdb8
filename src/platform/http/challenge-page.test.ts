import { describe, expect, it } from 'vitest';
import { detectChallenge } from './challenge-page.js';

const cloudflare =
  '<!DOCTYPE html><html><head><title>Just a moment...</title></head><body><div id="challenge-running">Checking if the site connection is secure</div><script src="/cdn-cgi/challenge-platform/h/b/orchestrate/chl_page/v1"></script></body></html>';
const article = `<html><body><article><h1>Bots</h1>${'<p>Sites ask visitors to verify you are human before they read on; this article explains why and how.</p>'.repeat(30)}</article></body></html>`;

describe('detectChallenge', () => {
  it('finds a Cloudflare challenge on a 403 by its words and its script', () => {
    expect(detectChallenge({ status: 403, body: cloudflare })).toBe(
      'a bot check ("Just a moment...") answered with HTTP 403',
    );
  });

  it('finds one by the cf-mitigated header alone', () => {
    const headers = new Headers({ 'cf-mitigated': 'challenge' });
    expect(detectChallenge({ status: 403, headers, body: '' })).toBe('a Cloudflare challenge (HTTP 403)');
  });

  it('finds the typographic ellipsis and a human check on 503 and 429', () => {
    expect(detectChallenge({ status: 503, body: '<title>Just a moment…</title>' })).toContain('HTTP 503');
    expect(detectChallenge({ status: 429, body: 'Please verify you are a human' })).toContain('HTTP 429');
  });

  it('leaves a plain 403, a 404 with the words, and a long article that mentions them', () => {
    expect(detectChallenge({ status: 403, body: '<h1>Forbidden</h1>' })).toBeUndefined();
    expect(detectChallenge({ status: 404, body: 'Just a moment...' })).toBeUndefined();
    expect(detectChallenge({ status: 200, body: article })).toBeUndefined();
  });

  it('finds an interstitial served with 200 when the page shows little else', () => {
    expect(
      detectChallenge({ status: 200, body: cloudflare, visibleText: 'Just a moment...\nChecking' }),
    ).toContain('HTTP 200');
  });
});
