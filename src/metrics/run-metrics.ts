import { isAbortError } from '../core/errors/index.js';
import type { AgentEvent } from '../events/agent-events.js';
import type { DeepSearchRuntime } from '../runtime/create-runtime.js';
import type { JobEvent } from '../scale/job-events.js';
import type { ProcessMetrics } from './process-metrics.js';

/**
 * The runtime with every run counted: started and finished by mode and outcome, its duration,
 * and from its events the LLM calls (tokens, latency by model and role), searches and page
 * reads (latency, failures by reason). The runtime itself is unchanged (a proxy adds an observer).
 */
export function withRunMetrics(runtime: DeepSearchRuntime, metrics: ProcessMetrics): DeepSearchRuntime {
  return new Proxy(runtime, {
    get(target, key, receiver) {
      if (key !== 'run') return Reflect.get(target, key, receiver);
      const run: DeepSearchRuntime['run'] = async (request) => {
        const mode = 'mode' in request && typeof request.mode === 'string' ? request.mode : 'resume';
        const observer = createEventMetrics(metrics);
        metrics.runsStarted.inc({ mode });
        const started = performance.now();
        const end = (outcome: string) => {
          metrics.runsFinished.inc({ mode, outcome });
          metrics.runDuration.observe({ mode, outcome }, (performance.now() - started) / 1000);
        };
        try {
          const result = await target.run({
            ...request,
            observers: [...(request.observers ?? []), observer],
          });
          end('completed');
          return result;
        } catch (error) {
          end(isAbortError(error) ? 'cancelled' : 'failed');
          throw error;
        }
      };
      return run;
    },
  });
}

/** One run's observer: pairs each step's search and read starts with their ends. */
function createEventMetrics(metrics: ProcessMetrics): (event: AgentEvent) => void {
  const searchStarts = new Map<string, number>();
  const readStarts = new Map<string, number>();
  return (event) => {
    const key = `${event.runId}:${'step' in event ? event.step : ''}`;
    switch (event.type) {
      case 'llm-call': {
        const labels = { model: event.model, role: event.role };
        metrics.llmCalls.inc({ ...labels, outcome: event.outcome });
        metrics.llmTokens.inc({ ...labels, direction: 'input' }, event.promptTokens);
        metrics.llmTokens.inc({ ...labels, direction: 'output' }, event.completionTokens);
        metrics.llmLatency.observe(labels, event.ms / 1000);
        break;
      }
      case 'search-start':
        searchStarts.set(key, event.at);
        break;
      case 'search-end': {
        const started = searchStarts.get(key);
        searchStarts.delete(key);
        if (started !== undefined) metrics.searchLatency.observe(Math.max(0, event.at - started) / 1000);
        break;
      }
      case 'read-start':
        readStarts.set(key, event.at);
        break;
      case 'read-end': {
        const started = readStarts.get(key);
        if (started !== undefined) metrics.readLatency.observe(Math.max(0, event.at - started) / 1000);
        if (!event.ok || event.paywalled) metrics.readFailures.inc({ reason: readFailureReason(event) });
        break;
      }
      default:
    }
  };
}

/** A bounded label for why a page could not be read (the error's text is free-form). */
export function readFailureReason(event: { paywalled?: boolean; error?: string }): string {
  if (event.paywalled) return 'paywalled';
  const error = event.error ?? '';
  if (/time(d)? ?out/i.test(error)) return 'timeout';
  if (/\b4\d\d\b/.test(error)) return 'http_4xx';
  if (/\b5\d\d\b/.test(error)) return 'http_5xx';
  if (/blocked|not allowed|refused|private/i.test(error)) return 'blocked';
  return 'other';
}

/** A worker's job events as counts (and takeovers: a job gone on with from an earlier attempt). */
export function countJobEvent(metrics: ProcessMetrics, event: JobEvent): void {
  metrics.jobs.inc({ event: event.event.replace('job-', '') });
  if (event.event === 'job-resumed' && event.attempt > 1) metrics.takeovers.inc();
}
