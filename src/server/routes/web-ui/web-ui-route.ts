import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { dirname, join, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Hono } from 'hono';
import { HttpError } from '../../http/http-error.js';

/**
 * The page may load only its own script and style and talk only to this server: an answer that
 * slipped markup past the sanitiser still could not run inline script, eval, or send data away.
 */
export const webUiContentSecurityPolicy = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

const securityHeaders: Record<string, string> = {
  'content-security-policy': webUiContentSecurityPolicy,
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
  'x-frame-options': 'DENY',
  'cross-origin-opener-policy': 'same-origin',
  // The files change with each release; no-cache revalidates instead of serving a stale script.
  'cache-control': 'no-cache',
};

const contentTypes: Record<string, string> = {
  html: 'text/html; charset=utf-8',
  js: 'text/javascript; charset=utf-8',
  css: 'text/css; charset=utf-8',
  txt: 'text/plain; charset=utf-8',
};

/**
 * The built page's folder: dist/web next to dist/server when installed, or the repository's
 * dist/web when the server runs from src/ (tests, tsx). Undefined when it was never built.
 */
export function findWebUiRoot(): string | undefined {
  // This file sits in server/routes/web-ui/: three levels up is dist/ (or src/).
  const top = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');
  const candidates = [join(top, 'web'), join(top, '..', 'dist', 'web')];
  return candidates.find(
    (folder) => existsSync(join(folder, 'index.html')) && existsSync(join(folder, 'app.js')),
  );
}

/**
 * GET / (the page) and GET /ui/<file> (its script and style) from one folder. A file name is one
 * path segment of safe characters, resolved and checked to stay inside the folder, so no `..`,
 * encoded or not, reaches anything else.
 */
export function createWebUiRoute(options: { root?: string } = {}): Hono {
  const root = options.root ?? findWebUiRoot();
  const app = new Hono();
  const serve = async (name: string) => {
    if (!root) {
      throw new HttpError('the web UI is not built in this installation (run `npm run build`)', {
        status: 404,
        type: 'not_found_error',
        code: 'web_ui_missing',
      });
    }
    const file = resolve(root, name);
    const extension = name.slice(name.lastIndexOf('.') + 1);
    if (
      !/^[A-Za-z0-9][\w.-]*$/.test(name) ||
      !file.startsWith(resolve(root) + sep) ||
      !contentTypes[extension]
    ) {
      return undefined;
    }
    try {
      const body = await readFile(file);
      return new Response(body, {
        headers: { ...securityHeaders, 'content-type': contentTypes[extension]! },
      });
    } catch {
      return undefined;
    }
  };
  app.get('/', async (c) => (await serve('index.html')) ?? c.notFound());
  app.get('/ui/:name', async (c) => (await serve(c.req.param('name'))) ?? c.notFound());
  return app;
}
