import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createWebUiRoute, webUiContentSecurityPolicy } from '../../src/server/routes/web-ui/web-ui-route.js';
import { buildWebUi } from '../browser/web-ui-browser.js';
import { startTestServer, type TestServer } from '../helpers/server-harness.js';

/** A GET whose path is sent byte for byte (fetch would resolve `..` and `%2e%2e` before sending). */
function rawGet(url: string, path: string): Promise<{ status: number; body: string }> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const outgoing = request({ hostname, port, path, method: 'GET' }, (response) => {
      let body = '';
      response.on('data', (chunk) => {
        body += chunk;
      });
      response.on('end', () => resolve({ status: response.statusCode ?? 0, body }));
    });
    outgoing.on('error', reject);
    outgoing.end();
  });
}

let server: TestServer | undefined;
beforeAll(async () => {
  buildWebUi();
  server = await startTestServer({ apiKey: 'sk-web-ui-route-0123456789' });
}, 60_000);
afterAll(() => server?.close());

describe('the web UI route of deepsearch serve', () => {
  it('serves the page at / without a key, with a strict CSP and no inline script', async () => {
    const response = await fetch(`${server!.url}/`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/html; charset=utf-8');
    const csp = response.headers.get('content-security-policy') ?? '';
    expect(csp).toBe(webUiContentSecurityPolicy);
    expect(csp).toContain("script-src 'self'");
    expect(csp).not.toMatch(/unsafe-inline|unsafe-eval/);
    expect(response.headers.get('x-content-type-options')).toBe('nosniff');
    const html = await response.text();
    expect(html).toContain('<script type="module" src="ui/app.js"></script>');
    expect(html).not.toMatch(/<script(?![^>]*\bsrc=)[^>]*>/);
    expect(html).not.toMatch(/\son[a-z]+=|style=/i);

    const script = await fetch(`${server!.url}/ui/app.js`);
    expect(script.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    expect((await script.text()).length).toBeGreaterThan(1000);
    // The API itself still wants the key.
    expect((await fetch(`${server!.url}/v1/models`)).status).toBe(401);
  });

  it('never serves a file outside its folder, whatever the path says', async () => {
    for (const path of [
      '/ui/../package.json',
      '/ui/..%2fpackage.json',
      '/ui/%2e%2e%2fpackage.json',
      '/ui/..%2f..%2fpackage.json',
      '/ui/..%5c..%5cpackage.json',
      '/ui/.hidden',
      '/ui/%2e%2e',
      '/ui/app.js%00.css',
      '/../package.json',
      '//etc/passwd',
    ]) {
      const { status, body } = await rawGet(server!.url, path);
      // URL parsing turns `/ui/%2e%2e` into `/`: the page itself, still inside the folder.
      if (status === 200)
        expect({ path, page: body.startsWith('<!doctype html>') }).toEqual({ path, page: true });
      else expect({ path, status }).toEqual({ path, status: 404 });
      expect(body).not.toContain('"dependencies"');
    }
    const post = await fetch(`${server!.url}/`, { method: 'POST' });
    expect(post.status).toBe(405);
  });

  it('serves only html, js, css and txt files from the top of its folder', async () => {
    const root = mkdtempSync(join(tmpdir(), 'web-ui-'));
    mkdirSync(join(root, 'sub'));
    writeFileSync(join(root, 'index.html'), '<!doctype html><title>t</title>');
    writeFileSync(join(root, 'secret.json'), '{"key":"x"}');
    writeFileSync(join(root, 'sub', 'a.js'), 'x');
    const app = createWebUiRoute({ root });
    expect((await app.request('/')).status).toBe(200);
    expect((await app.request('/ui/secret.json')).status).toBe(404);
    expect((await app.request('/ui/sub%2fa.js')).status).toBe(404);
    const missing = createWebUiRoute({ root: join(root, 'nothing-here') });
    const answer = await missing.request('/');
    expect(answer.status).toBe(404);
  });
});
