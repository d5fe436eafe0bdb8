import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findChromium } from '../../src/platform/browser/launch-chromium.js';
import type { FakeHttpServer } from '../../src/testing/fake-http-server.js';
import { startFakeOpenAi } from '../../src/testing/fake-openai-server.js';
import { appShellPage } from '../helpers/app-shell-page.js';
import { startFakeSearxng } from '../helpers/fake-searxng-server.js';
import { startFakeWeb } from '../helpers/fake-web-server.js';
import { runBuiltCli } from '../helpers/run-built-cli.js';
import { tideAgentRoutes } from '../helpers/tide-agent-routes.js';

// The built CLI reads client-rendered pages served on 127.0.0.1 (allowed with
// --allow-private-network, as the other reader tests do). The CLI process is preloaded with a
// guard that ends it on any connection or lookup beyond loopback; Chromium resolves no name itself
// and talks only to the reader's guard proxy, itself on 127.0.0.1.
const canRun = findChromium(undefined).available || process.env.CI === 'true';
const loopbackOnly = fileURLToPath(new URL('../helpers/loopback-only.cjs', import.meta.url));
const article = {
  title: 'Tides of Brest',
  paragraphs: [
    'High tide at Brest is at 12:04 today, the harbour master announced.',
    'Low tide follows at 18:17 and the next spring tide is due on Friday.',
  ],
};
const env = { NODE_OPTIONS: `--require ${loopbackOnly}` };

let web: FakeHttpServer;

beforeAll(async () => {
  web = await startFakeWeb({
    pages: {
      '/tides': { html: appShellPage({ article: { dataUrl: '/api/tides' } }) },
      '/api/tides': { body: JSON.stringify(article), contentType: 'application/json' },
      // Fetches its data, then waits 1.5 s (a timer) before it writes #app.
      '/late': {
        html: appShellPage({ article: { dataUrl: '/api/tides' }, mountId: 'app', writeAfterMs: 1500 }),
      },
      // Never writes: empty in a browser too.
      '/broken': {
        html: appShellPage({ article: { dataUrl: '/api/tides' }, mountId: 'app', neverWrites: true }),
      },
    },
  });
});

afterAll(() => web.close());

describe.skipIf(!canRun)('deepsearch read with the browser reader (built CLI)', { timeout: 120_000 }, () => {
  it('--reader browser prints the text the page’s script wrote; the builtin reader sees none of it', async () => {
    const url = `${web.url}/tides`;
    const browser = await runBuiltCli(
      ['read', '--reader', 'browser', '--allow-private-network', '--format', 'text', url],
      env,
    );
    expect(browser.stderr).toBe('');
    expect(browser.code).toBe(0);
    expect(browser.stdout).toContain(article.paragraphs[0]);
    expect(browser.stdout).toContain(article.paragraphs[1]);
    // The default (auto) falls back to the browser on this app shell.
    const auto = await runBuiltCli(['read', '--allow-private-network', '--format', 'json', url], env);
    expect(auto.code).toBe(0);
    expect(JSON.parse(auto.stdout).text).toContain(article.paragraphs[1]);
    const builtin = await runBuiltCli(['read', '--reader', 'builtin', '--allow-private-network', url], env);
    expect(builtin.code).toBe(0);
    expect(builtin.stdout).not.toContain(article.paragraphs[0]);
  });

  it('waits for a page that writes its text 1.5 s after loading (auto and browser), and says when one never does', async () => {
    const late = `${web.url}/late`;
    for (const reader of ['auto', 'browser']) {
      const run = await runBuiltCli(
        ['read', '--reader', reader, '--allow-private-network', '--format', 'text', late],
        env,
      );
      expect(run.stderr).toBe('');
      expect(run.code).toBe(0);
      expect(run.stdout).toContain(article.paragraphs[0]);
      expect(run.stdout).toContain(article.paragraphs[1]);
    }
    const broken = `${web.url}/broken`;
    const args = ['read', '--allow-private-network', '--reader-timeout', '3', '--format', 'json', broken];
    for (const reader of ['auto', 'browser']) {
      const run = await runBuiltCli([...args.slice(0, 1), '--reader', reader, ...args.slice(1)], env);
      expect(run.code).toBe(0);
      const reason =
        'an app shell whose scripts wrote no text within 3 s in Chromium (limit: DEEPSEARCH_READER_TIMEOUT)';
      expect(run.stderr).toBe(`deepsearch: note: ${broken} is ${reason}\n`);
      expect(JSON.parse(run.stdout)).toMatchObject({ url: broken, emptyReason: reason });
    }
  });

  it('refuses a loopback page without --allow-private-network, and says what to install without Chromium', async () => {
    const refused = await runBuiltCli(['read', '--reader', 'browser', `${web.url}/tides`], env);
    expect(refused.code).not.toBe(0);
    expect(refused.stderr).toContain('loopback address (use --allow-private-network to allow)');
    const missing = await runBuiltCli(
      [
        'read',
        '--reader',
        'browser',
        '--chromium-path',
        '/nowhere/chromium',
        '--allow-private-network',
        `${web.url}/tides`,
      ],
      env,
    );
    expect(missing.code).toBe(2);
    expect(missing.stderr).toBe(
      'deepsearch: error: Chromium is not at /nowhere/chromium (DEEPSEARCH_CHROMIUM_PATH): install it or fix the path\n',
    );
    const doctor = await runBuiltCli(
      [
        'doctor',
        ...['--reader', 'browser', '--chromium-path', '/nowhere/chromium', '--page', `${web.url}/tides`],
        // No search configured: its check fails before any request (DuckDuckGo would go out).
        ...['--search-provider', 'searxng'],
      ],
      env,
    );
    expect(doctor.stdout).toContain('FAIL  browser   Chromium is not at /nowhere/chromium');
    expect(doctor.stdout).toContain('fix: install it (Debian/Ubuntu: apt-get install chromium)');
  });

  it('an agent run reads an app shell through the browser and cites what the script wrote', async () => {
    const searxng = await startFakeSearxng({
      results: () => [{ url: `${web.url}/tides`, title: 'Brest tides', content: 'Tide times for Brest.' }],
    });
    const llm = await startFakeOpenAi({ routes: tideAgentRoutes(`${web.url}/tides`) });
    try {
      const run = await runBuiltCli(
        ['ask', 'When is high tide at Brest today?', '--json', '--allow-private-network'],
        {
          ...env,
          DEEPSEARCH_LLM_BASE_URL: `${llm.url}/v1`,
          DEEPSEARCH_LLM_MODEL: 'fake-model',
          DEEPSEARCH_SEARCH_PROVIDER: 'searxng',
          DEEPSEARCH_SEARXNG_URL: searxng.url,
          DEEPSEARCH_QUERY_REWRITE: '0',
        },
      );
      expect(run.code).toBe(0);
      expect(run.stderr).toMatch(/✓ http:\/\/127\.0\.0\.1:\d+\/tides \(\d+ chars\)/);
      const output = JSON.parse(run.stdout);
      // The quote is only in what the script wrote (not in the shell, not in the search snippet).
      expect(output.references).toEqual([
        expect.objectContaining({
          url: `${web.url}/tides`,
          quote: 'High tide at Brest is at 12:04 today',
          quoteKind: 'exact',
        }),
      ]);
      llm.assertConsumed();
    } finally {
      await llm.close();
      await searxng.close();
    }
  });
});
