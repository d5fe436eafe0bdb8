import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type FakeOpenAiServer, startFakeOpenAi } from '../../src/testing/fake-openai-server.js';
import {
  type FakeOtlpReceiver,
  type ReceivedSpan,
  startFakeOtlpReceiver,
} from '../helpers/fake-otlp-receiver.js';
import { alwaysPassingEvaluation } from '../helpers/passing-evaluation.js';
import { runBuiltCli } from '../helpers/run-built-cli.js';
import { serveBuiltCli } from '../helpers/serve-built-cli.js';
import {
  repeatingAgent,
  startWeakModelWorld,
  type WeakModelWorld,
  weakModelQuestion,
} from '../helpers/weak-model-world.js';

let world: WeakModelWorld;
let llm: FakeOpenAiServer;
let receiver: FakeOtlpReceiver;
let dir: string;
beforeAll(async () => {
  world = await startWeakModelWorld();
  const reply = (object: unknown) => ({ content: JSON.stringify(object) });
  llm = await startFakeOpenAi({ routes: { ...repeatingAgent(world), ...alwaysPassingEvaluation(reply) } });
  receiver = await startFakeOtlpReceiver();
  dir = mkdtempSync(join(tmpdir(), 'deepsearch-otel-'));
});
afterAll(async () => {
  await world.close();
  await llm.close();
  await receiver.close();
  rmSync(dir, { recursive: true, force: true });
});

const env = (extra: Record<string, string> = {}) => ({
  DEEPSEARCH_LLM_BASE_URL: `${llm.url}/v1`,
  DEEPSEARCH_LLM_MODEL: 'fake-model',
  DEEPSEARCH_SEARCH_PROVIDER: 'searxng',
  DEEPSEARCH_SEARXNG_URL: world.searxng.url,
  DEEPSEARCH_ALLOW_PRIVATE_NETWORK: '1',
  ...extra,
});

const traced = (extra: Record<string, string> = {}) =>
  env({ OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url, OTEL_BSP_SCHEDULE_DELAY: '200', ...extra });

/** The spans of one trace, by the run span's run id. */
function traceOfRun(runId: string): ReceivedSpan[] {
  const run = receiver.spans.find(
    (span) => span.name === 'deepsearch.run' && span.attributes['deepsearch.run.id'] === runId,
  );
  if (!run)
    throw new Error(`no run span for ${runId}: ${receiver.spans.map((span) => span.name).join(', ')}`);
  return receiver.spans.filter((span) => span.traceId === run.traceId);
}

const childrenOf = (spans: ReceivedSpan[], parent: ReceivedSpan) =>
  spans.filter((span) => span.parentSpanId === parent.spanId);

/**
 * A resolve hook that writes each module specifier Node resolves to a file: what a command loaded,
 * dynamic imports included (registered with --import through NODE_OPTIONS).
 */
function moduleProbe(name: string): { env: Record<string, string>; loaded: () => string[] } {
  const hooks = join(dir, `${name}-hooks.mjs`);
  const register = join(dir, `${name}-register.mjs`);
  const log = join(dir, `${name}-modules.txt`);
  writeFileSync(log, '');
  writeFileSync(
    hooks,
    `import { appendFileSync } from 'node:fs';
export async function resolve(specifier, context, next) {
  appendFileSync(${JSON.stringify(log)}, specifier + '\\n');
  return next(specifier, context);
}\n`,
  );
  writeFileSync(
    register,
    `import { register } from 'node:module';\nregister(${JSON.stringify(`file://${hooks}`)});\n`,
  );
  return {
    env: { NODE_OPTIONS: `--import=${register}` },
    loaded: () => readFileSync(log, 'utf8').split('\n').filter(Boolean),
  };
}

describe('OpenTelemetry traces (built CLI and server, OTLP/HTTP receiver on 127.0.0.1)', () => {
  it('ask: a run span with its steps, LLM calls (GenAI conventions), search and page reads', async () => {
    const run = await runBuiltCli(['ask', weakModelQuestion, '--json'], traced());
    expect(run.code, run.stderr).toBe(0);
    const runId = (JSON.parse(run.stdout) as { runId: string }).runId;
    const spans = traceOfRun(runId);
    const root = spans.find((span) => span.name === 'deepsearch.run')!;
    expect(root.parentSpanId).toBeUndefined();
    expect(root.attributes).toMatchObject({
      'deepsearch.run.mode': 'search',
      'deepsearch.run.outcome': 'completed',
    });
    expect(root.resource).toMatchObject({ 'service.name': 'deepsearch', 'deepsearch.role': 'cli' });
    const steps = childrenOf(spans, root).filter((span) => span.name === 'deepsearch.step');
    expect(steps.length).toBeGreaterThanOrEqual(2);
    expect(steps.map((span) => span.attributes['deepsearch.step.action'])).toEqual(
      expect.arrayContaining(['search', 'visit', 'answer']),
    );
    const stepIds = new Set(steps.map((span) => span.spanId));
    const llmCalls = spans.filter((span) => span.name === 'chat fake-model');
    expect(llmCalls.length).toBe(
      llm.requests.filter((request) => request.path.endsWith('/chat/completions')).length,
    );
    for (const call of llmCalls) {
      expect(call.kind).toBe(3);
      expect(call.attributes).toMatchObject({
        'gen_ai.operation.name': 'chat',
        'gen_ai.system': 'openai-compatible',
        'gen_ai.request.model': 'fake-model',
      });
      expect(call.attributes['gen_ai.usage.input_tokens']).toBeGreaterThan(0);
      expect(typeof call.attributes['gen_ai.usage.output_tokens']).toBe('number');
      expect(['agent', 'evaluator', 'rewriter', 'planner', 'writer']).toContain(
        call.attributes['deepsearch.llm.role'],
      );
      // Under a step of the run, or the run itself (the evaluation after the answer step).
      expect(stepIds.has(call.parentSpanId!) || call.parentSpanId === root.spanId).toBe(true);
      expect(call.endMs).toBeGreaterThanOrEqual(call.startMs);
    }
    const search = spans.find((span) => span.name === 'deepsearch.search')!;
    expect(search.attributes).toMatchObject({ 'deepsearch.search.provider': 'searxng' });
    expect(search.attributes['deepsearch.search.results']).toBeGreaterThan(0);
    const read = spans.find((span) => span.name === 'deepsearch.read')!;
    expect(read.attributes).toMatchObject({ 'url.full': world.readUrls[0], 'deepsearch.read.ok': true });
    expect(read.attributes['deepsearch.read.chars']).toBeGreaterThan(0);
    // Nobody opted in: the question and the queries are on no span.
    for (const span of spans) expect(JSON.stringify(span.attributes)).not.toContain('Varnholt');
  });

  it('puts the question and the queries on spans only when DEEPSEARCH_TRACE_CONTENT is on', async () => {
    const run = await runBuiltCli(
      ['ask', weakModelQuestion, '--json'],
      traced({ DEEPSEARCH_TRACE_CONTENT: '1' }),
    );
    expect(run.code, run.stderr).toBe(0);
    const spans = traceOfRun((JSON.parse(run.stdout) as { runId: string }).runId);
    expect(spans.find((span) => span.name === 'deepsearch.run')!.attributes['deepsearch.question']).toBe(
      weakModelQuestion,
    );
    expect(
      spans.find((span) => span.name === 'deepsearch.search')!.attributes['deepsearch.search.query_text'],
    ).toEqual(expect.arrayContaining([expect.any(String)]));
  });

  it('without the OpenTelemetry variables nothing is sent and no OpenTelemetry module is loaded', async () => {
    const off = moduleProbe('off');
    const before = receiver.requests.length;
    const run = await runBuiltCli(['ask', weakModelQuestion], env(off.env));
    expect(run.code, run.stderr).toBe(0);
    expect(off.loaded().length).toBeGreaterThan(10);
    // The AI SDK imports @opentelemetry/api (a no-op until a tracer is registered), as before;
    // none of the SDK, exporter or context packages is loaded.
    expect(
      off
        .loaded()
        .filter((specifier) => specifier.includes('@opentelemetry') && specifier !== '@opentelemetry/api'),
    ).toEqual([]);
    // The probe sees them when tracing is on, so its silence above means something.
    const on = moduleProbe('on');
    expect((await runBuiltCli(['ask', weakModelQuestion], traced(on.env))).code).toBe(0);
    expect(on.loaded().some((specifier) => specifier.includes('@opentelemetry/sdk-trace'))).toBe(true);
    expect(receiver.requests.length).toBeGreaterThan(before);
    const sent = receiver.requests.slice(before);
    expect(sent.every((request) => request.path === '/v1/traces')).toBe(true);
  });

  it('serve: a request span joins the caller’s trace, and a run queued by a request is traced inside it', async () => {
    const server = await serveBuiltCli(traced({ DEEPSEARCH_NO_RUNS: '0' }));
    try {
      const traceId = '4bf92f3577b34da6a3ce929d0e0e4736';
      const callerSpan = '00f067aa0ba902b7';
      const chat = await fetch(`${server.url}/v1/chat/completions`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', traceparent: `00-${traceId}-${callerSpan}-01` },
        body: JSON.stringify({
          model: 'deepsearch',
          messages: [{ role: 'user', content: weakModelQuestion }],
        }),
      });
      expect(chat.status).toBe(200);
      await chat.json();
      const posted = await fetch(`${server.url}/v1/research`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ question: weakModelQuestion, mode: 'search' }),
      });
      expect(posted.status).toBe(202);
      const { id } = (await posted.json()) as { id: string };
      await expect
        .poll(
          async () =>
            ((await (await fetch(`${server.url}/v1/research/${id}`)).json()) as { status: string }).status,
          {
            timeout: 30_000,
          },
        )
        .toBe('completed');
    } finally {
      await server.stop();
    }
    const traceId = '4bf92f3577b34da6a3ce929d0e0e4736';
    await expect
      .poll(() => receiver.spans.filter((span) => span.traceId === traceId).length)
      .toBeGreaterThan(3);
    const chatTrace = receiver.spans.filter((span) => span.traceId === traceId);
    const request = chatTrace.find((span) => span.kind === 2)!;
    expect(request.parentSpanId).toBe('00f067aa0ba902b7');
    expect(request.name).toBe('POST /v1/chat/completions');
    expect(request.attributes).toMatchObject({
      'http.request.method': 'POST',
      'http.response.status_code': 200,
    });
    expect(request.resource['deepsearch.role']).toBe('server');
    const chatRun = chatTrace.find((span) => span.name === 'deepsearch.run')!;
    expect(chatRun.parentSpanId).toBe(request.spanId);
    // The queued run: its job carried the POST's trace context to the run.
    const post = receiver.spans.find((span) => span.name === 'POST /v1/research')!;
    const queuedRun = receiver.spans.find(
      (span) =>
        span.name === 'deepsearch.run' && span.traceId === post.traceId && span.parentSpanId === post.spanId,
    );
    expect(queuedRun?.attributes['deepsearch.run.outcome']).toBe('completed');
  });
});
