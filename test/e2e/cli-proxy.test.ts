import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { closedPortUrl, type FakeHttpServer } from '../../src/testing/fake-http-server.js';
import { type FakeOpenAiServer, startFakeOpenAi } from '../../src/testing/fake-openai-server.js';
import { startFakeSearxng } from '../helpers/fake-searxng-server.js';
import { startFakeWeb } from '../helpers/fake-web-server.js';
import { type RecordingProxy, startRecordingProxy } from '../helpers/recording-proxy.js';
import { runBuiltCli } from '../helpers/run-built-cli.js';
import { serveBuiltCli } from '../helpers/serve-built-cli.js';
import { tideAgentRoutes } from '../helpers/tide-agent-routes.js';
import {
  createTestCertificate,
  startTlsFront,
  type TestCertificate,
  type TlsFront,
} from '../helpers/tls-front.js';

// Every server here is on 127.0.0.1; the proxy connects to nothing else. The LLM is served over
// https (a self-signed certificate the CLI trusts through NODE_EXTRA_CA_CERTS), so its calls take a
// CONNECT tunnel; search and pages are plain http, forwarded.
const password = 'pr0xy-s3cret!';
const basicToken = Buffer.from(`alice:${password}`).toString('base64');
const question = 'When is high tide at Brest today?';
const tidePage =
  '<html><head><title>Brest tides</title></head><body><article><p>High tide at Brest is at 12:04 today, low tide at 18:17.</p></article></body></html>';

let dir: string;
let certificate: TestCertificate;
let web: FakeHttpServer;
let searxng: FakeHttpServer;
const cleanups: Array<() => Promise<void>> = [];

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'deepsearch-proxy-'));
  certificate = createTestCertificate(dir);
  web = await startFakeWeb({ pages: { '/brest': { html: tidePage } } });
  searxng = await startFakeSearxng({
    results: () => [{ url: `${web.url}/brest`, title: 'Brest tides', content: 'High tide at Brest.' }],
  });
});

afterEach(async () => {
  for (const cleanup of cleanups.splice(0)) await cleanup();
});

afterAll(async () => {
  await web.close();
  await searxng.close();
  rmSync(dir, { recursive: true, force: true });
});

async function track<T extends { close(): Promise<void> }>(started: Promise<T>): Promise<T> {
  const server = await started;
  cleanups.push(() => server.close());
  return server;
}

/** An LLM behind TLS that searches, reads the page and answers with a quote from it. */
async function startLlm(): Promise<{ llm: FakeOpenAiServer; front: TlsFront }> {
  const llm = await track(startFakeOpenAi({ routes: tideAgentRoutes(`${web.url}/brest`) }));
  const front = await track(startTlsFront({ certificate, targetUrl: llm.url }));
  return { llm, front };
}

/** Both proxy variables at the recording proxy, with alice's credentials unless told otherwise. */
function proxyEnv(proxy: RecordingProxy, options: { user?: string; noProxy?: string } = {}) {
  const proxyUrl = proxy.url.replace(
    'http://',
    `http://${options.user ?? `alice:${encodeURIComponent(password)}`}@`,
  );
  return {
    HTTPS_PROXY: proxyUrl,
    HTTP_PROXY: proxyUrl,
    // Set and empty: loopback targets go through the test proxy too.
    NO_PROXY: options.noProxy ?? '',
  };
}

function askEnv(front: TlsFront): Record<string, string> {
  return {
    DEEPSEARCH_LLM_BASE_URL: `${front.url}/v1`,
    DEEPSEARCH_LLM_MODEL: 'fake-model',
    DEEPSEARCH_SEARCH_PROVIDER: 'searxng',
    DEEPSEARCH_SEARXNG_URL: searxng.url,
    DEEPSEARCH_ALLOW_PRIVATE_NETWORK: '1',
    DEEPSEARCH_QUERY_REWRITE: '0',
    NODE_EXTRA_CA_CERTS: certificate.certFile,
  };
}

const targets = (proxy: RecordingProxy) =>
  proxy.requests.map((request) => `${request.method} ${request.target}`);

describe('deepsearch behind a proxy (built CLI, everything on 127.0.0.1)', () => {
  it('an ask sends its LLM, search and page requests through the proxy, and prints no credential', async () => {
    const { llm, front } = await startLlm();
    const proxy = await track(startRecordingProxy({ credentials: { username: 'alice', password } }));
    const runsFile = join(dir, 'runs.sqlite');
    const run = await runBuiltCli(['ask', question, '--json', '--debug'], {
      ...askEnv(front),
      ...proxyEnv(proxy),
      DEEPSEARCH_NO_RUNS: '0',
      DEEPSEARCH_RUNS_FILE: runsFile,
    });
    expect(run.code, run.stderr).toBe(0);
    expect(JSON.parse(run.stdout).answer).toContain('12:04');
    const seen = targets(proxy);
    expect(seen).toContain(`CONNECT ${new URL(front.url).host}`);
    expect(seen.some((target) => target.startsWith(`GET ${searxng.url}/search?`))).toBe(true);
    expect(seen).toContain(`GET ${web.url}/brest`);
    expect(proxy.requests.every((request) => request.proxyAuthorization === `Basic ${basicToken}`)).toBe(
      true,
    );
    expect(llm.requests.filter((request) => request.path === '/v1/chat/completions')).toHaveLength(5);
    // --debug prints the config: the proxy is named, its credentials are not.
    expect(run.stderr).toContain(`http://***:***@127.0.0.1:${new URL(proxy.url).port}/`);
    const stored = readdirSync(dir)
      .filter((name) => name.startsWith('runs.sqlite'))
      .map((name) => readFileSync(join(dir, name)).toString('latin1'))
      .join('');
    expect(stored).toContain('12:04');
    for (const text of [run.stdout, run.stderr, stored]) {
      expect(text).not.toContain(password);
      expect(text).not.toContain(encodeURIComponent(password));
      expect(text).not.toContain(basicToken);
    }
  });

  it("with NO_PROXY naming the LLM's host, the LLM calls go direct and the rest through the proxy", async () => {
    const { llm, front } = await startLlm();
    const proxy = await track(startRecordingProxy());
    const run = await runBuiltCli(['ask', question, '--json'], {
      ...askEnv(front),
      ...proxyEnv(proxy, { noProxy: 'localhost' }),
    });
    expect(run.code, run.stderr).toBe(0);
    expect(llm.requests.filter((request) => request.path === '/v1/chat/completions')).toHaveLength(5);
    const seen = targets(proxy);
    expect(seen.filter((target) => target.startsWith('CONNECT'))).toEqual([]);
    expect(seen).toContain(`GET ${web.url}/brest`);
    expect(seen.some((target) => target.startsWith(`GET ${searxng.url}/search?`))).toBe(true);
  });

  it('a proxy that wants other credentials (407): the error names the proxy and the variable, exit 3', async () => {
    const { llm, front } = await startLlm();
    const proxy = await track(startRecordingProxy({ credentials: { username: 'alice', password } }));
    const run = await runBuiltCli(['ask', question], {
      ...askEnv(front),
      ...proxyEnv(proxy, { user: 'alice:wrong-pass' }),
    });
    expect(run.code).toBe(3);
    expect(run.stderr).toContain(
      `deepsearch: error: the proxy http://***:***@127.0.0.1:${new URL(proxy.url).port}/ (set by HTTPS_PROXY) asks for credentials (HTTP 407)`,
    );
    // The URL had credentials: they were sent and rejected, so the advice is to check them.
    expect(run.stderr).toContain('it rejected the user and password in the proxy URL; check them');
    expect(run.stderr).not.toContain('put them in the proxy URL');
    expect(run.stderr).not.toContain('wrong-pass');
    expect(llm.requests).toHaveLength(0);
  });

  it('a proxy that is down: the error says so and which setting chose it', async () => {
    const { llm, front } = await startLlm();
    const down = await closedPortUrl();
    const run = await runBuiltCli(['ask', question, '--proxy', down, '--llm-max-retries', '0'], {
      ...askEnv(front),
      HTTPS_PROXY: 'http://ignored.invalid:3128',
      NO_PROXY: '',
    });
    expect(run.code).toBe(3);
    expect(run.stderr).toContain(
      `deepsearch: error: cannot reach the proxy ${down}/ (set by --proxy) to fetch ${front.url}/v1/chat/completions: connection refused (ECONNREFUSED)`,
    );
    expect(llm.requests).toHaveLength(0);
  });

  it('a private or metadata page is refused before the proxy is asked', async () => {
    const proxy = await track(startRecordingProxy());
    for (const url of [
      'http://169.254.169.254/latest/meta-data/',
      `${web.url}/brest`,
      'http://localhost:8080/',
    ]) {
      const run = await runBuiltCli(['read', url], proxyEnv(proxy));
      expect(run.code).toBe(2);
      expect(run.stderr).toMatch(/deepsearch: error: refusing to fetch .*(metadata|loopback|localhost)/);
    }
    expect(proxy.requests).toEqual([]);
    // Allowed, the same loopback page is read through the proxy.
    const allowed = await runBuiltCli(
      ['read', `${web.url}/brest`, '--allow-private-network'],
      proxyEnv(proxy),
    );
    expect(allowed.stdout).toContain('High tide at Brest is at 12:04');
    expect(targets(proxy)).toEqual([`GET ${web.url}/brest`]);
  });

  it('doctor prints the proxy in use (credentials masked) and checks a request through it', async () => {
    const llm = await track(
      startFakeOpenAi({ models: ['fake-model'], respond: () => ({ content: '{"ok":true}' }) }),
    );
    const proxy = await track(startRecordingProxy({ credentials: { username: 'alice', password } }));
    const env = {
      DEEPSEARCH_LLM_BASE_URL: `${llm.url}/v1`,
      DEEPSEARCH_LLM_MODEL: 'fake-model',
      DEEPSEARCH_SEARXNG_URL: searxng.url,
    };
    const page = `${web.url}/brest`;
    const run = await runBuiltCli(['doctor', '--page', page, '--allow-private-network'], {
      ...env,
      ...proxyEnv(proxy),
    });
    expect(run.code, run.stdout).toBe(0);
    const port = new URL(proxy.url).port;
    expect(run.stdout.split('\n')[0]).toBe(
      `ok    proxy     http via http://***:***@127.0.0.1:${port}/ (HTTP_PROXY), https via http://***:***@127.0.0.1:${port}/ ` +
        `(HTTPS_PROXY); bypassed for none (NO_PROXY); carried a request to ${page} (HTTP 200)`,
    );
    expect(targets(proxy)).toEqual(
      expect.arrayContaining([
        `GET ${page}`,
        `GET ${llm.url}/v1/models`,
        `POST ${llm.url}/v1/chat/completions`,
      ]),
    );
    expect(run.stdout + run.stderr).not.toContain(password);

    // Loopback bypasses the proxy by default: the proxy is named but not tried.
    const down = await closedPortUrl();
    const doctor = (flags: string[]) =>
      runBuiltCli(['doctor', '--page', page, '--allow-private-network', '--proxy', down, ...flags], env);
    const bypassed = await doctor([]);
    expect(bypassed.stdout.split('\n')[0]).toBe(
      `ok    proxy     ${down}/ (--proxy) for http and https; bypassed for localhost,127.0.0.1,::1 ` +
        `(default NO_PROXY); not tried: ${page} bypasses it`,
    );
    const failed = await doctor(['--proxy-bypass', '']);
    expect(failed.code).toBe(2);
    const lines = failed.stdout.split('\n');
    expect(lines[0]).toContain(
      `FAIL  proxy     ${down}/ (--proxy) for http and https; bypassed for none (--proxy-bypass); `,
    );
    expect(lines[0]).toContain(`cannot reach the proxy ${down}/ (set by --proxy) to fetch ${page}`);
    expect(lines[1]).toContain('fix: check the proxy URL and its credentials');
    for (const check of ['llm', 'search', 'reader']) {
      expect(failed.stdout).toMatch(
        new RegExp(`FAIL {2}${check} +cannot reach the proxy ${down}/ \\(set by --proxy\\)`),
      );
    }
    // Three doctor runs, each starting Chromium for the default reader's browser line: seconds apiece
    // on a busy machine.
  }, 90_000);

  it("the server's outbound calls go through the same proxy", async () => {
    const { llm, front } = await startLlm();
    const proxy = await track(startRecordingProxy());
    const server = await serveBuiltCli({ ...askEnv(front), ...proxyEnv(proxy) });
    cleanups.push(async () => {
      await server.stop();
    });
    const response = await fetch(`${server.url}/v1/chat/completions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'deepsearch', messages: [{ role: 'user', content: question }] }),
    });
    expect(response.status).toBe(200);
    expect(JSON.stringify(await response.json())).toContain('12:04');
    expect(targets(proxy)).toEqual(
      expect.arrayContaining([`CONNECT ${new URL(front.url).host}`, `GET ${web.url}/brest`]),
    );
    expect(llm.requests.length).toBeGreaterThan(0);
  });
});
