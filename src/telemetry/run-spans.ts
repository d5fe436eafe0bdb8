import type { Attributes, Context, Span, SpanOptions } from '@opentelemetry/api';
import type { LlmRole } from '../config/config-schema.js';
import { isAbortError } from '../core/errors/index.js';
import type { AgentEvent, AgentEventListener } from '../events/agent-events.js';
import type { Tracing } from './start-tracing.js';

/** What a run's spans say of where it ran, besides its events. */
export interface TracedRun {
  runId: string;
  mode: 'search' | 'research';
  question: string;
  /** The LLM provider of a role (`gen_ai.system`): openai, anthropic, openai-compatible... */
  llmSystem(role: LlmRole): string;
  /** The search provider and the reader configured. */
  searchProvider: string;
  reader: string;
}

export interface RunSpans {
  observe: AgentEventListener;
  /** Ends the run's span (and any left open) with its outcome; a failure or cancellation says so. */
  end(outcome: { error?: unknown }): void;
}

/**
 * A run's trace, made from its events as they come (the loop knows nothing of tracing): a span
 * for the run (child of the context active when it began: an HTTP request's span, or the API
 * node's request carried to the worker with the job), one per step, per LLM call (GenAI semantic
 * conventions: `gen_ai.system`, `gen_ai.request.model`, `gen_ai.usage.input_tokens` /
 * `output_tokens`), per search, per page read (reader, outcome, characters, failure reason), and
 * in research per section, hop, claim verification and fact-check. Times are the events' own (an
 * LLM call's span starts its duration before its event). No prompt or page text is put on a span;
 * the question and the queries only when `tracing.content` is on.
 */
export function createRunSpans(tracing: Tracing, run: TracedRun): RunSpans {
  const { api, tracer, content } = tracing;
  const parent = api.context.active();
  const open = new Set<Span>();
  const start = (name: string, options: SpanOptions, within: Context): Span => {
    const span = tracer.startSpan(name, options, within);
    open.add(span);
    return span;
  };
  const finish = (span: Span | undefined, at?: number) => {
    if (!span || !open.delete(span)) return;
    span.end(at);
  };
  const under = (span: Span) => api.trace.setSpan(parent, span);
  const root = start(
    'deepsearch.run',
    {
      attributes: {
        'deepsearch.run.id': run.runId,
        'deepsearch.run.mode': run.mode,
        ...(content ? { 'deepsearch.question': run.question } : {}),
      },
    },
    parent,
  );
  // Sub-runs (a research section's hop, a claim's verification) by their run ids; steps, searches
  // and reads by run id and step.
  const runs = new Map<string, Span>([[run.runId, root]]);
  const sections = new Map<string, Span>();
  const steps = new Map<string, Span>();
  const searches = new Map<string, Span>();
  const reads = new Map<string, Span>();
  let factCheck: Span | undefined;
  const runOf = (event: AgentEvent) => runs.get(event.runId) ?? root;
  const stepOf = (event: AgentEvent & { step: number }) =>
    steps.get(`${event.runId}:${event.step}`) ?? runOf(event);
  const section = (id: string, at: number) => {
    let span = sections.get(id);
    if (!span) {
      span = start(
        'deepsearch.research.section',
        { startTime: at, attributes: { 'deepsearch.section': id } },
        under(root),
      );
      sections.set(id, span);
    }
    return span;
  };
  const observe = (event: AgentEvent) => {
    switch (event.type) {
      case 'run-start': {
        if (event.runId === run.runId || !event.part) return;
        const { purpose, section: sectionId, hop } = event.part;
        let within = root;
        if (purpose === 'verification') {
          factCheck ??= start('deepsearch.research.fact_check', { startTime: event.at }, under(root));
          within = factCheck;
        } else if (sectionId) within = section(sectionId, event.at);
        const attributes: Attributes = {
          'deepsearch.run.id': event.runId,
          ...(sectionId ? { 'deepsearch.section': sectionId } : {}),
          ...(hop !== undefined ? { 'deepsearch.hop': hop } : {}),
        };
        const name =
          purpose === 'verification' ? 'deepsearch.research.verification' : 'deepsearch.research.hop';
        runs.set(event.runId, start(name, { startTime: event.at, attributes }, under(within)));
        return;
      }
      case 'step-start':
        steps.set(
          `${event.runId}:${event.step}`,
          start(
            'deepsearch.step',
            {
              startTime: event.at,
              attributes: { 'deepsearch.step': event.step, 'deepsearch.step.final': event.final },
            },
            under(runOf(event)),
          ),
        );
        return;
      case 'action':
        stepOf(event).setAttribute('deepsearch.step.action', event.action);
        return;
      case 'step-end': {
        const span = steps.get(`${event.runId}:${event.step}`);
        span?.setAttributes({
          'deepsearch.step.action': event.action,
          'deepsearch.usage.total_tokens': event.usage.totalTokens,
        });
        finish(span, event.at);
        steps.delete(`${event.runId}:${event.step}`);
        return;
      }
      case 'llm-call': {
        const span = start(
          `chat ${event.model}`,
          {
            kind: api.SpanKind.CLIENT,
            startTime: event.at - event.ms,
            attributes: {
              'gen_ai.operation.name': 'chat',
              'gen_ai.system': run.llmSystem(event.role),
              'gen_ai.provider.name': run.llmSystem(event.role),
              'gen_ai.request.model': event.model,
              'gen_ai.usage.input_tokens': event.promptTokens,
              'gen_ai.usage.output_tokens': event.completionTokens,
              'deepsearch.llm.role': event.role,
              'deepsearch.llm.outcome': event.outcome,
              'deepsearch.llm.tokens_estimated': event.estimated,
            },
          },
          under(stepOf(event)),
        );
        if (event.outcome !== 'ok') {
          span.setStatus({ code: api.SpanStatusCode.ERROR, message: event.error ?? event.outcome });
          span.setAttribute('error.type', event.outcome);
        }
        finish(span, event.at);
        return;
      }
      case 'search-start':
        searches.set(
          `${event.runId}:${event.step}`,
          start(
            'deepsearch.search',
            {
              kind: api.SpanKind.CLIENT,
              startTime: event.at,
              attributes: {
                'deepsearch.search.provider': run.searchProvider,
                'deepsearch.search.queries': event.queries.length,
                ...(content ? { 'deepsearch.search.query_text': event.queries } : {}),
              },
            },
            under(stepOf(event)),
          ),
        );
        return;
      case 'search-end': {
        const key = `${event.runId}:${event.step}`;
        const span = searches.get(key);
        if (!span) return;
        span.setAttributes({
          'deepsearch.search.results': event.hits,
          'deepsearch.search.new_urls': event.newUrls,
          'deepsearch.search.failures': event.failures.length,
        });
        if (event.failures.length > 0 && event.failures.length >= event.queries.length) {
          span.setStatus({ code: api.SpanStatusCode.ERROR, message: event.failures[0]!.error });
        }
        finish(span, event.at);
        searches.delete(key);
        return;
      }
      case 'read-start':
        for (const url of event.urls) {
          reads.set(
            `${event.runId}:${event.step}:${url}`,
            start(
              'deepsearch.read',
              {
                kind: api.SpanKind.CLIENT,
                startTime: event.at,
                attributes: { 'url.full': url, 'deepsearch.reader': run.reader },
              },
              under(stepOf(event)),
            ),
          );
        }
        return;
      case 'read-end': {
        const key = `${event.runId}:${event.step}:${event.url}`;
        const span = reads.get(key);
        if (!span) return;
        span.setAttributes({
          'deepsearch.read.ok': event.ok,
          ...(event.chars !== undefined ? { 'deepsearch.read.chars': event.chars } : {}),
          ...(event.paywalled ? { 'deepsearch.read.paywalled': true } : {}),
        });
        if (!event.ok) {
          span.setStatus({ code: api.SpanStatusCode.ERROR, message: event.error ?? 'not read' });
          span.setAttribute('deepsearch.read.failure', event.error ?? 'not read');
        }
        finish(span, event.at);
        reads.delete(key);
        return;
      }
      case 'research-hop':
        section(event.section, event.at);
        return;
      case 'research-section': {
        const span = section(event.section, event.at);
        span.setAttributes({
          'deepsearch.section.state': event.state,
          ...(event.covered !== undefined ? { 'deepsearch.section.covered': event.covered } : {}),
          ...(event.total !== undefined ? { 'deepsearch.section.items': event.total } : {}),
          ...(event.sources !== undefined ? { 'deepsearch.section.sources': event.sources } : {}),
        });
        if (event.state === 'written') finish(span, event.at);
        return;
      }
      case 'fact-check': {
        factCheck ??= start('deepsearch.research.fact_check', { startTime: event.at }, under(root));
        factCheck.setAttributes({
          'deepsearch.fact_check.claims': event.claims,
          'deepsearch.fact_check.supported': event.supported,
          'deepsearch.fact_check.revised': event.revised,
          'deepsearch.fact_check.removed': event.removed,
        });
        finish(factCheck, event.at);
        return;
      }
      case 'run-end': {
        const span = runOf(event);
        span.setAttributes({
          'deepsearch.run.references': event.result.references.length,
          'deepsearch.usage.total_tokens': event.result.usage.totalTokens,
        });
        // A sub-run ends with its run-end; the run itself when its outcome is known (end()).
        if (span !== root) finish(span, event.at);
        return;
      }
      default:
        return;
    }
  };
  return {
    observe,
    end(outcome) {
      const failed = outcome.error !== undefined;
      const code = (outcome.error as { code?: unknown } | undefined)?.code;
      const name = (outcome.error as { name?: unknown } | undefined)?.name;
      const cancelled = failed && isAbortError(outcome.error);
      root.setAttribute(
        'deepsearch.run.outcome',
        failed ? (cancelled ? 'cancelled' : 'failed') : 'completed',
      );
      if (failed) {
        root.setStatus({
          code: api.SpanStatusCode.ERROR,
          message: typeof code === 'string' ? code : cancelled ? 'cancelled' : 'failed',
        });
        root.setAttribute('error.type', typeof code === 'string' ? code : String(name ?? 'Error'));
      }
      const now = Date.now();
      for (const span of [...open].reverse()) if (span !== root) finish(span, now);
      finish(root, now);
    },
  };
}
