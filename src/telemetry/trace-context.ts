import { activeTracing } from './start-tracing.js';

/** W3C trace context (`traceparent`, `tracestate`) as a job carries it to the worker that runs it. */
export type TraceCarrier = Record<string, string>;

/** The active trace context as a carrier, or undefined when nothing is traced. */
export function injectTraceContext(): TraceCarrier | undefined {
  const tracing = activeTracing();
  if (!tracing) return undefined;
  const carrier: TraceCarrier = {};
  tracing.api.propagation.inject(tracing.api.context.active(), carrier);
  return Object.keys(carrier).length > 0 ? carrier : undefined;
}

/** Runs `work` inside the trace context a carrier holds (a queued run's, from the API node). */
export function withTraceContext<T>(carrier: TraceCarrier | undefined, work: () => T): T {
  const tracing = activeTracing();
  if (!tracing || !carrier) return work();
  const { api } = tracing;
  return api.context.with(api.propagation.extract(api.context.active(), carrier), work);
}
