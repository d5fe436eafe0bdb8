// GET /metrics of the server (src/metrics/): behind the API key like /v1, in Prometheus's text
// format, and its values move as runs happen (runs, LLM calls and tokens by role, search and read
// latency, SSE streams, slots).
import { afterEach, describe, expect, it } from 'vitest';
import { listenMetrics } from '../../src/metrics/metrics-server.js';
import { createProcessMetrics } from '../../src/metrics/process-metrics.js';
import { readFailureReason } from '../../src/metrics/run-metrics.js';
import { citedRun } from '../helpers/server-fixtures.js';
import { startTestServer, type TestServer } from '../helpers/server-harness.js';

const apiKey = 'metrics-test-key-0123456789';
let server: TestServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

/** One sample's value (`name{labels} value`), 0 when absent. */
function sample(text: string, name: string, labels: Record<string, string> = {}): number {
  const wanted = Object.entries(labels).map(([key, value]) => `${key}="${value}"`);
  for (const line of text.split('\n')) {
    if (line.startsWith('#') || !(line.startsWith(`${name}{`) || line.startsWith(`${name} `))) continue;
    if (wanted.every((pair) => line.includes(pair))) return Number(line.slice(line.lastIndexOf(' ') + 1));
  }
  return 0;
}

async function scrape(): Promise<string> {
  const response = await fetch(`${server!.url}/metrics`, { headers: { authorization: `Bearer ${apiKey}` } });
  expect(response.status).toBe(200);
  expect(response.headers.get('content-type')).toContain('text/plain');
  return response.text();
}

describe('GET /metrics', () => {
  it('needs the API key, and counts runs, LLM calls, tokens, searches and reads as they happen', async () => {
    server = await startTestServer({
      steps: citedRun.steps(),
      search: citedRun.search,
      pages: citedRun.pages,
      apiKey,
      metrics: true,
    });
    expect((await fetch(`${server.url}/metrics`)).status).toBe(401);
    const before = await scrape();
    expect(sample(before, 'deepsearch_runs_started_total', { mode: 'search' })).toBe(0);
    expect(before).toContain('# TYPE deepsearch_slots_in_use gauge');
    expect(sample(before, 'deepsearch_sse_streams_open')).toBe(0);

    const response = await fetch(`${server.url}/v1/chat/completions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${apiKey}` },
      body: JSON.stringify({
        model: 'deepsearch',
        stream: true,
        messages: [{ role: 'user', content: citedRun.question }],
      }),
    });
    await response.text();
    server.llm.assertConsumed();

    const after = await scrape();
    expect(sample(after, 'deepsearch_runs_started_total', { mode: 'search' })).toBe(1);
    expect(sample(after, 'deepsearch_runs_finished_total', { mode: 'search', outcome: 'completed' })).toBe(1);
    expect(
      sample(after, 'deepsearch_run_duration_seconds_count', { mode: 'search', outcome: 'completed' }),
    ).toBe(1);
    const agentCalls = sample(after, 'deepsearch_llm_calls_total', { role: 'agent', outcome: 'ok' });
    expect(agentCalls).toBeGreaterThanOrEqual(3);
    expect(
      sample(after, 'deepsearch_llm_tokens_total', { role: 'agent', direction: 'input' }),
    ).toBeGreaterThan(0);
    expect(sample(after, 'deepsearch_llm_call_duration_seconds_count', { role: 'agent' })).toBe(agentCalls);
    expect(sample(after, 'deepsearch_search_duration_seconds_count')).toBe(1);
    expect(sample(after, 'deepsearch_read_duration_seconds_count')).toBeGreaterThanOrEqual(1);
    // Closed again (counted while open: test/distributed/queue-mode-takeover.test.ts scrapes a node mid-stream).
    expect(sample(after, 'deepsearch_sse_streams_open')).toBe(0);
    expect(sample(after, 'deepsearch_slots_in_use')).toBe(0);
  });

  it('--metrics-port serves the same registry without a key; read failures get a bounded reason', async () => {
    const metrics = createProcessMetrics();
    metrics.readFailures.inc({ reason: readFailureReason({ error: 'HTTP 404 Not Found' }) });
    const listening = await listenMetrics({ host: '127.0.0.1', port: 0, registry: metrics.registry });
    try {
      const text = await (await fetch(listening.url)).text();
      expect(sample(text, 'deepsearch_read_failures_total', { reason: 'http_4xx' })).toBe(1);
      expect((await fetch(listening.url.replace('/metrics', '/other'))).status).toBe(404);
    } finally {
      await listening.close();
    }
    expect(readFailureReason({ paywalled: true })).toBe('paywalled');
    expect(readFailureReason({ error: 'the page did not answer in 10 s (timeout)' })).toBe('timeout');
    expect(readFailureReason({ error: 'upstream 503' })).toBe('http_5xx');
    expect(readFailureReason({ error: 'something odd' })).toBe('other');
  });
});
