import type * as Api from '@opentelemetry/api';
import { tracingContentAllowed, tracingRequested } from './tracing-requested.js';

/** What this process traces with, once startTracing has loaded the OpenTelemetry SDK. */
export interface Tracing {
  readonly api: typeof Api;
  readonly tracer: Api.Tracer;
  /** Questions and search queries go on spans (DEEPSEARCH_TRACE_CONTENT); page text never does. */
  readonly content: boolean;
  /** Sends what is buffered and stops (the end of a command, a server's shutdown). */
  shutdown(): Promise<void>;
}

export interface StartTracingOptions {
  env: NodeJS.ProcessEnv;
  /** What this process is: `cli`, `server` or `worker` (the resource's `deepsearch.role`). */
  role: string;
  version: string;
}

let active: Promise<Tracing | undefined> | undefined;
let started: Tracing | undefined;

/**
 * Starts tracing when the OpenTelemetry variables ask for it (tracingRequested): the SDK, an
 * optional dependency, is imported only then; spans are batched and sent over OTLP/HTTP to the
 * endpoint the standard variables name (OTEL_EXPORTER_OTLP_ENDPOINT, ..._TRACES_ENDPOINT,
 * ..._HEADERS, OTEL_SERVICE_NAME, OTEL_RESOURCE_ATTRIBUTES, OTEL_TRACES_SAMPLER...), with W3C trace
 * context propagation. Resolves undefined when not asked, or when the SDK is not installed (said
 * once through `warn`). Once per process; later calls get the first one's tracing.
 */
export function startTracing(
  options: StartTracingOptions,
  warn: (message: string) => void = () => {},
): Promise<Tracing | undefined> {
  if (!tracingRequested(options.env)) return Promise.resolve(undefined);
  active ??= load(options).then(
    (tracing) => {
      started = tracing;
      return tracing;
    },
    (error: unknown) => {
      warn(
        `tracing is off: the OpenTelemetry SDK could not be loaded (${(error as Error)?.message ?? error}); install the optional dependencies (npm install --include=optional)`,
      );
      return undefined;
    },
  );
  return active;
}

/** The process's tracing if startTracing began it, else undefined (nothing is traced). */
export function activeTracing(): Tracing | undefined {
  return started;
}

/** Flushes and stops the process's tracing, if any (safe to call when there is none). */
export async function stopTracing(): Promise<void> {
  const tracing = await active;
  active = undefined;
  started = undefined;
  await tracing?.shutdown();
}

async function load(options: StartTracingOptions): Promise<Tracing> {
  const [api, sdk, exporter, resources, hooks, core] = await Promise.all([
    import('@opentelemetry/api'),
    import('@opentelemetry/sdk-trace'),
    import('@opentelemetry/exporter-trace-otlp-http'),
    import('@opentelemetry/resources'),
    import('@opentelemetry/context-async-hooks'),
    import('@opentelemetry/core'),
  ]);
  const resource = resources.defaultResource().merge(
    resources.resourceFromAttributes({
      'service.name': options.env.OTEL_SERVICE_NAME?.trim() || 'deepsearch',
      'service.version': options.version,
      'deepsearch.role': options.role,
    }),
  );
  // OTEL_RESOURCE_ATTRIBUTES (and OTEL_SERVICE_NAME, which wins over ours) from the environment.
  const detected = resources.detectResources({ detectors: [resources.envDetector] });
  const provider = new sdk.TracerProvider({
    resource: resource.merge(detected),
    spanProcessors: [new sdk.BatchSpanProcessor({ exporter: new exporter.OTLPTraceExporter() })],
  });
  api.context.setGlobalContextManager(new hooks.AsyncLocalStorageContextManager().enable());
  api.propagation.setGlobalPropagator(new core.W3CTraceContextPropagator());
  api.trace.setGlobalTracerProvider(provider);
  return {
    api,
    tracer: provider.getTracer('deepsearch', options.version),
    content: tracingContentAllowed(options.env),
    async shutdown() {
      await provider.shutdown().catch(() => undefined);
      api.trace.disable();
      api.context.disable();
      api.propagation.disable();
    },
  };
}
