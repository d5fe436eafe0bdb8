/**
 * Whether this process should trace its runs: the standard OpenTelemetry variables name an OTLP
 * endpoint (for all signals or for traces), and neither OTEL_SDK_DISABLED nor OTEL_TRACES_EXPORTER
 * turns traces off. Read without loading any OpenTelemetry module: with it false, none is loaded.
 */
export function tracingRequested(env: NodeJS.ProcessEnv): boolean {
  const endpoint = env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT || env.OTEL_EXPORTER_OTLP_ENDPOINT;
  if (!endpoint?.trim()) return false;
  if (env.OTEL_SDK_DISABLED?.trim().toLowerCase() === 'true') return false;
  const exporters = (env.OTEL_TRACES_EXPORTER ?? 'otlp').split(',').map((name) => name.trim().toLowerCase());
  return exporters.includes('otlp');
}

/** Whether spans may carry what people wrote and pages said (questions, queries): off unless asked. */
export function tracingContentAllowed(env: NodeJS.ProcessEnv): boolean {
  return ['1', 'true', 'yes'].includes((env.DEEPSEARCH_TRACE_CONTENT ?? '').trim().toLowerCase());
}
