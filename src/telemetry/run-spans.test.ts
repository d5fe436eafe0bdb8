import * as api from '@opentelemetry/api';
import { InMemorySpanExporter, SimpleSpanProcessor, TracerProvider } from '@opentelemetry/sdk-trace';
import { describe, expect, it } from 'vitest';
import { AbortedError } from '../core/errors/index.js';
import type { AgentEvent, AgentEventBody } from '../events/agent-events.js';
import { createRunSpans } from './run-spans.js';
import type { Tracing } from './start-tracing.js';

function tracing(content = false) {
  const exporter = new InMemorySpanExporter();
  const provider = new TracerProvider({ spanProcessors: [new SimpleSpanProcessor({ exporter })] });
  const made: Tracing = {
    api,
    tracer: provider.getTracer('test'),
    content,
    shutdown: () => provider.shutdown(),
  };
  return { made, exporter };
}

const run = { runId: 'task', mode: 'research' as const, question: 'Heat pumps in Europe?' };
const systems = { llmSystem: () => 'anthropic', searchProvider: 'brave', reader: 'builtin' };

/** Events' times are epoch milliseconds: the tests' small offsets from this one. */
const base = Date.UTC(2026, 11, 5);

function emitter(observe: (event: AgentEvent) => void) {
  let seq = 0;
  return (runId: string, at: number, body: AgentEventBody) =>
    observe({ ...body, runId, seq: ++seq, at: base + at } as AgentEvent);
}

describe('createRunSpans', () => {
  it('files a research run: sections, their hops as sub-runs with steps and LLM calls, verifications under the fact-check', async () => {
    const { made, exporter } = tracing();
    const spans = createRunSpans(made, { ...run, ...systems });
    const emit = emitter(spans.observe);
    emit('task', 1000, { type: 'run-start', question: run.question, language: 'en' });
    emit('task', 1010, {
      type: 'research-hop',
      section: 's1',
      hop: 1,
      questions: ['q'],
      limits: { maxTokens: 1, maxSteps: 1, maxTimeMs: 1 },
    });
    emit('hop1', 1020, {
      type: 'run-start',
      question: 'q',
      language: 'en',
      parentRunId: 'task',
      part: { purpose: 'section', section: 's1', hop: 1 },
    });
    emit('hop1', 1030, {
      type: 'step-start',
      step: 1,
      question: 'q',
      allowed: ['search'],
      promptTokens: 10,
      final: false,
    });
    emit('hop1', 1500, {
      type: 'llm-call',
      step: 1,
      role: 'agent',
      model: 'claude',
      promptTokens: 900,
      completionTokens: 40,
      ms: 400,
      outcome: 'ok',
      estimated: false,
      repairs: 0,
    });
    emit('hop1', 1510, { type: 'search-start', step: 1, queries: ['heat pump sales'] });
    emit('hop1', 1700, {
      type: 'search-end',
      step: 1,
      queries: ['heat pump sales'],
      hits: 8,
      newUrls: 5,
      failures: [],
    });
    emit('hop1', 1710, { type: 'read-start', step: 1, urls: ['https://a.test/1', 'https://b.test/2'] });
    emit('hop1', 1800, { type: 'read-end', step: 1, url: 'https://a.test/1', ok: true, chars: 5000 });
    emit('hop1', 1900, { type: 'read-end', step: 1, url: 'https://b.test/2', ok: false, error: 'timed out' });
    emit('hop1', 1950, {
      type: 'step-end',
      step: 1,
      action: 'search',
      usage: { totalTokens: 940 } as never,
      budget: {} as never,
    });
    emit('hop1', 2000, { type: 'run-end', result: { references: [], usage: { totalTokens: 940 } } as never });
    emit('task', 2100, { type: 'research-section', section: 's1', state: 'written', sources: 3 });
    emit('check1', 2200, {
      type: 'run-start',
      question: 'claim',
      language: 'en',
      parentRunId: 'task',
      part: { purpose: 'verification', section: 's1' },
    });
    emit('check1', 2300, {
      type: 'run-end',
      result: { references: [], usage: { totalTokens: 10 } } as never,
    });
    emit('task', 2400, { type: 'fact-check', claims: 4, supported: 3, revised: 1, removed: 0 });
    spans.end({});
    const finished = exporter.getFinishedSpans();
    const named = (name: string) => finished.filter((span) => span.name === name);
    const byId = (id: string | undefined) => finished.find((span) => span.spanContext().spanId === id);
    const parentOf = (span: (typeof finished)[number]) => byId(span.parentSpanContext?.spanId)?.name;
    const [root] = named('deepsearch.run');
    expect(root!.attributes).toMatchObject({
      'deepsearch.run.id': 'task',
      'deepsearch.run.outcome': 'completed',
    });
    // The question is not on any span unless content is allowed.
    expect(JSON.stringify(finished.map((span) => span.attributes))).not.toContain('Heat pumps');
    const [section] = named('deepsearch.research.section');
    expect(parentOf(section!)).toBe('deepsearch.run');
    expect(section!.attributes).toMatchObject({
      'deepsearch.section': 's1',
      'deepsearch.section.sources': 3,
    });
    const [hop] = named('deepsearch.research.hop');
    expect(parentOf(hop!)).toBe('deepsearch.research.section');
    expect(hop!.attributes).toMatchObject({ 'deepsearch.run.id': 'hop1', 'deepsearch.hop': 1 });
    const [step] = named('deepsearch.step');
    expect(parentOf(step!)).toBe('deepsearch.research.hop');
    const [call] = named('chat claude');
    expect(parentOf(call!)).toBe('deepsearch.step');
    expect(call!.kind).toBe(api.SpanKind.CLIENT);
    expect(call!.attributes).toMatchObject({
      'gen_ai.system': 'anthropic',
      'gen_ai.request.model': 'claude',
      'gen_ai.usage.input_tokens': 900,
      'gen_ai.usage.output_tokens': 40,
      'deepsearch.llm.role': 'agent',
    });
    // The call's span covers its 400 ms before its event.
    expect(call!.startTime).toEqual([Math.floor((base + 1100) / 1000), ((base + 1100) % 1000) * 1e6]);
    expect(call!.endTime).toEqual([Math.floor((base + 1500) / 1000), ((base + 1500) % 1000) * 1e6]);
    expect(named('deepsearch.search')[0]!.attributes).toMatchObject({
      'deepsearch.search.provider': 'brave',
      'deepsearch.search.results': 8,
    });
    const reads = named('deepsearch.read');
    expect(reads.map((span) => span.attributes['url.full'])).toEqual([
      'https://a.test/1',
      'https://b.test/2',
    ]);
    expect(reads[1]!.status).toEqual({ code: api.SpanStatusCode.ERROR, message: 'timed out' });
    const [factCheck] = named('deepsearch.research.fact_check');
    expect(factCheck!.attributes).toMatchObject({
      'deepsearch.fact_check.claims': 4,
      'deepsearch.fact_check.revised': 1,
    });
    expect(parentOf(named('deepsearch.research.verification')[0]!)).toBe('deepsearch.research.fact_check');
    // Every span is of one trace.
    expect(new Set(finished.map((span) => span.spanContext().traceId)).size).toBe(1);
  });

  it('a cancelled run ends its open spans, the run marked cancelled', () => {
    const { made, exporter } = tracing(true);
    const spans = createRunSpans(made, { ...run, mode: 'search', ...systems });
    const emit = emitter(spans.observe);
    emit('task', 1000, {
      type: 'step-start',
      step: 1,
      question: 'q',
      allowed: ['search'],
      promptTokens: 10,
      final: false,
    });
    spans.end({ error: new AbortedError('stopped') });
    const finished = exporter.getFinishedSpans();
    expect(finished.map((span) => span.name)).toEqual(['deepsearch.step', 'deepsearch.run']);
    expect(finished[1]!.attributes).toMatchObject({
      'deepsearch.run.outcome': 'cancelled',
      'deepsearch.question': 'Heat pumps in Europe?',
    });
    expect(finished[1]!.status.code).toBe(api.SpanStatusCode.ERROR);
  });
});
