import { afterEach, describe, expect, it } from 'vitest';
import { scriptedStep } from '../../src/testing/scripted-steps.js';
import { postChat, sseData, startTestServer, type TestServer, waitFor } from '../helpers/server-harness.js';

let server: TestServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const hits = {
  'Green Book director': [
    { url: 'https://example.org/green-book', title: 'Green Book', snippet: 'Directed by Peter Farrelly.' },
  ],
};
const body = (extra: Record<string, unknown> = {}) =>
  JSON.stringify({
    model: 'deepsearch',
    messages: [{ role: 'user', content: 'Who directed Green Book?' }],
    stream: true,
    ...extra,
  });

describe('cancellation and shutdown', () => {
  it('a client that disconnects mid-stream cancels the run: no LLM, search or read call starts after it', async () => {
    server = await startTestServer({
      search: hits,
      steps: [
        scriptedStep.search(['Green Book director']),
        // Slow enough to be cut by the disconnect, short enough that a run not cancelled would read the page.
        { ...scriptedStep.visit(['https://example.org/green-book']), delayMs: 600 },
        scriptedStep.answer('Peter Farrelly.'),
      ],
    });
    const stream = await server.client.chat.completions.create({
      model: 'deepsearch',
      messages: [{ role: 'user', content: 'Who directed Green Book?' }],
      stream: true,
    });
    for await (const chunk of stream) {
      const delta = chunk.choices[0]?.delta as { reasoning_content?: string } | undefined;
      if (delta?.reasoning_content?.includes('searched')) break;
    }
    // Leaving the loop aborts the client's request: the connection closes mid-run.
    await waitFor(() => server!.logs.some((line) => line.outcome === 'cancelled'));
    await new Promise((resolve) => setTimeout(resolve, 1000));
    expect(server.llm.calls).toHaveLength(2);
    expect(server.llm.remaining).toBe(1);
    expect(server.search.calls).toHaveLength(1);
    expect(server.reader.calls).toEqual([]);
    expect(await (await fetch(`${server.url}/ready`)).json()).toMatchObject({ running: 0 });
  });

  it('a client that disconnects without streaming cancels the run too', async () => {
    server = await startTestServer({
      search: hits,
      steps: [{ ...scriptedStep.search(['Green Book director']), delayMs: 5000 }],
    });
    const controller = new AbortController();
    const request = fetch(`${server.url}/v1/chat/completions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: body({ stream: false }),
      signal: controller.signal,
    });
    await waitFor(() => server!.llm.calls.length === 1);
    controller.abort();
    await expect(request).rejects.toThrow();
    await waitFor(() => server!.logs.some((line) => line.outcome === 'cancelled'), 1000);
    expect(server.search.calls).toEqual([]);
    expect(await (await fetch(`${server.url}/ready`)).json()).toMatchObject({ running: 0 });
  });

  it('on shutdown: refuses new requests, lets a running stream finish within the grace period', async () => {
    server = await startTestServer({ steps: [{ ...scriptedStep.answer('2'), delayMs: 300 }] });
    const running = postChat(server.url, body({ messages: [{ role: 'user', content: 'What is 1+1?' }] }));
    await waitFor(() => server!.llm.calls.length === 1);
    const closed = server.server.close({ graceMs: 5000 });
    const refused = await postChat(server.url, body()).catch((error: unknown) => error);
    if (refused instanceof Response) expect(refused.status).toBe(503);
    else expect(refused).toBeInstanceOf(Error);
    const data = sseData(await (await running).text());
    expect(data.at(-1)).toBe('[DONE]');
    expect(data.join('')).toContain('"finish_reason":"stop"');
    await closed;
  });

  it('on shutdown: a run still going when the grace period ends is cancelled and its stream ends cleanly', async () => {
    server = await startTestServer({ steps: [{ ...scriptedStep.answer('2'), delayMs: 10_000 }] });
    const running = postChat(server.url, body({ messages: [{ role: 'user', content: 'What is 1+1?' }] }));
    await waitFor(() => server!.llm.calls.length === 1);
    const started = Date.now();
    await Promise.all([
      server.server.close({ graceMs: 100 }),
      running
        .then((response) => response.text())
        .then((text) => {
          const data = sseData(text);
          expect(data.at(-1)).toBe('[DONE]');
          expect(JSON.parse(data.at(-2)!)).toMatchObject({ error: { code: 'cancelled' } });
        }),
    ]);
    expect(Date.now() - started).toBeLessThan(3000);
  });
});
