import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A span as an OTLP/HTTP JSON export carries it, its attributes and its resource's flattened. */
export interface ReceivedSpan {
  traceId: string;
  spanId: string;
  parentSpanId: string | undefined;
  name: string;
  /** OTLP's SpanKind: 1 internal, 2 server, 3 client. */
  kind: number;
  startMs: number;
  endMs: number;
  attributes: Record<string, unknown>;
  status: { code: number; message?: string };
  resource: Record<string, unknown>;
}

export interface FakeOtlpReceiver {
  /** Base URL, as OTEL_EXPORTER_OTLP_ENDPOINT takes it (the exporter adds /v1/traces). */
  url: string;
  spans: ReceivedSpan[];
  /** Every request received: path and content type. */
  requests: Array<{ path: string; contentType: string | undefined }>;
  close(): Promise<void>;
}

type OtlpValue = {
  stringValue?: string;
  intValue?: string | number;
  doubleValue?: number;
  boolValue?: boolean;
  arrayValue?: { values?: OtlpValue[] };
};
type OtlpAttribute = { key: string; value: OtlpValue };

/**
 * An OpenTelemetry collector's OTLP/HTTP trace endpoint on 127.0.0.1 (POST /v1/traces, JSON as the
 * OTLP specification encodes it: ids in hex, 64-bit integers as strings), keeping every span.
 */
export async function startFakeOtlpReceiver(): Promise<FakeOtlpReceiver> {
  const spans: ReceivedSpan[] = [];
  const requests: FakeOtlpReceiver['requests'] = [];
  const server = createServer(async (request, response) => {
    requests.push({ path: request.url ?? '', contentType: request.headers['content-type'] });
    const body = await readBody(request);
    if (request.method !== 'POST' || request.url !== '/v1/traces') {
      response.writeHead(404).end();
      return;
    }
    if (!request.headers['content-type']?.includes('application/json')) {
      response.writeHead(415).end();
      return;
    }
    const exported = JSON.parse(body) as {
      resourceSpans?: Array<{
        resource?: { attributes?: OtlpAttribute[] };
        scopeSpans?: Array<{ spans?: Array<Record<string, unknown>> }>;
      }>;
    };
    for (const resourceSpans of exported.resourceSpans ?? []) {
      const resource = attributesOf(resourceSpans.resource?.attributes);
      for (const scope of resourceSpans.scopeSpans ?? []) {
        for (const span of scope.spans ?? []) {
          spans.push({
            traceId: String(span.traceId),
            spanId: String(span.spanId),
            parentSpanId: span.parentSpanId ? String(span.parentSpanId) : undefined,
            name: String(span.name),
            kind: Number(span.kind ?? 0),
            startMs: Number(BigInt(String(span.startTimeUnixNano)) / 1_000_000n),
            endMs: Number(BigInt(String(span.endTimeUnixNano)) / 1_000_000n),
            attributes: attributesOf(span.attributes as OtlpAttribute[] | undefined),
            status: (span.status as { code: number; message?: string } | undefined) ?? { code: 0 },
            resource,
          });
        }
      }
    }
    response.writeHead(200, { 'content-type': 'application/json' }).end('{}');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    spans,
    requests,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

function readBody(request: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    request.on('error', reject);
  });
}

function attributesOf(list: OtlpAttribute[] | undefined): Record<string, unknown> {
  return Object.fromEntries((list ?? []).map(({ key, value }) => [key, plainValue(value)]));
}

function plainValue(value: OtlpValue): unknown {
  if (value.stringValue !== undefined) return value.stringValue;
  if (value.intValue !== undefined) return Number(value.intValue);
  if (value.doubleValue !== undefined) return value.doubleValue;
  if (value.boolValue !== undefined) return value.boolValue;
  if (value.arrayValue) return (value.arrayValue.values ?? []).map(plainValue);
  return undefined;
}
