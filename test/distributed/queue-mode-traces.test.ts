// Queue mode traced end to end: an API node and a worker (the built CLI) on one Redis and one
// Postgres, both exporting spans over OTLP/HTTP to a receiver on 127.0.0.1. A chat completion sent
// with a W3C traceparent is run by the worker; its run's spans are in the caller's trace, under the
// API node's request span, carried by the job.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type FakeOtlpReceiver, startFakeOtlpReceiver } from '../helpers/fake-otlp-receiver.js';
import {
  type BuiltServer,
  type BuiltWorker,
  startApiNode,
  startBuiltWorker,
} from '../helpers/queue-cluster.js';
import { type QueueWorld, startQueueWorld } from '../helpers/queue-world.js';
import { researchTopic } from '../helpers/research-fake-llm.js';
import { needServices } from '../helpers/scale-services.js';

const available = needServices('redis', 'postgres');

let world: QueueWorld | undefined;
let receiver: FakeOtlpReceiver;
const started: Array<BuiltServer | BuiltWorker> = [];

beforeAll(async () => {
  if (!available) return;
  world = await startQueueWorld({ hold: () => false });
  receiver = await startFakeOtlpReceiver();
}, 120_000);

afterAll(async () => {
  await Promise.all(started.splice(0).map((process) => process.stop()));
  await world?.stop();
  await receiver?.close();
});

describe.skipIf(!available)('queue mode traces (API node and worker, OTLP/HTTP on 127.0.0.1)', () => {
  it("a run queued by a request is traced on its worker inside the request's trace", async () => {
    const env = {
      ...world!.modelEnv,
      ...world!.queueEnv,
      OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url,
      OTEL_BSP_SCHEDULE_DELAY: '200',
    };
    const node = await startApiNode(env);
    started.push(node);
    const worker = await startBuiltWorker(env);
    started.push(worker);
    const traceId = '0af7651916cd43dd8448eb211c80319c';
    const response = await fetch(`${node.url}/v1/chat/completions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', traceparent: `00-${traceId}-b7ad6b7169203331-01` },
      body: JSON.stringify({ model: 'deepsearch', messages: [{ role: 'user', content: researchTopic }] }),
    });
    expect(response.status).toBe(200);
    await response.json();
    // The worker exports its spans when its batch is due (200 ms here) or when it stops.
    await Promise.all(started.splice(0).map((process) => process.stop()));
    const trace = receiver.spans.filter((span) => span.traceId === traceId);
    const request = trace.find((span) => span.name === 'POST /v1/chat/completions');
    expect(request?.parentSpanId).toBe('b7ad6b7169203331');
    expect(request?.resource['deepsearch.role']).toBe('server');
    const run = trace.find((span) => span.name === 'deepsearch.run');
    expect(run?.resource['deepsearch.role']).toBe('worker');
    expect(run?.parentSpanId).toBe(request?.spanId);
    expect(run?.attributes['deepsearch.run.outcome']).toBe('completed');
    const below = trace.filter((span) => span.resource['deepsearch.role'] === 'worker');
    expect(below.some((span) => span.name.startsWith('chat '))).toBe(true);
    expect(below.some((span) => span.name === 'deepsearch.step')).toBe(true);
  }, 120_000);
});
