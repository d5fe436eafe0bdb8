import { afterEach, describe, expect, it } from 'vitest';
import { scriptedStep } from '../../src/testing/scripted-steps.js';
import { startTestServer, type TestServer } from '../helpers/server-harness.js';

const keyA = 'sk-fair-share-key-a';
const keyB = 'sk-fair-share-key-b';
const keyC = 'sk-fair-share-key-c';

let server: TestServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const auth = (key: string) => ({ authorization: `Bearer ${key}`, 'content-type': 'application/json' });

async function startJob(key: string, question: string) {
  const response = await fetch(`${server!.url}/v1/research`, {
    method: 'POST',
    headers: auth(key),
    body: JSON.stringify({ question }),
  });
  return { response, body: (await response.json()) as { status?: string; error?: { code: string } } };
}

/** An MCP initialize request (protocol fields only: the session is all these tests need). */
async function openSession(key: string): Promise<Response> {
  return fetch(`${server!.url}/mcp`, {
    method: 'POST',
    headers: { ...auth(key), accept: 'application/json, text/event-stream' },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'test', version: '1' } },
    }),
  });
}

/** Whether the session still answers (a closed one is 404 "session not found"). */
async function sessionAlive(key: string, id: string): Promise<boolean> {
  const response = await fetch(`${server!.url}/mcp`, {
    method: 'POST',
    headers: { ...auth(key), accept: 'application/json, text/event-stream', 'mcp-session-id': id },
    body: JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'ping' }),
  });
  await response.body?.cancel();
  return response.status === 200;
}

describe('one key cannot take the whole server', () => {
  it('12 jobs of one key: its share of the queue, then 429 owner_busy; another key is still queued', async () => {
    const hang = { ...scriptedStep.answer('2'), delayMs: 60_000 };
    server = await startTestServer({
      server: { apiKeys: [keyA, keyB], maxConcurrent: 2, maxQueue: 4 },
      steps: [hang, hang, hang],
    });
    const ofA = [];
    for (let index = 0; index < 12; index++) ofA.push(await startJob(keyA, `What is 1+${index}?`));
    expect(ofA.map((job) => job.body.status ?? job.body.error?.code)).toEqual([
      'running',
      'running',
      'queued',
      'queued',
      ...Array.from({ length: 8 }, () => 'owner_busy'),
    ]);
    const refused = ofA[4]!.response;
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    // Before the fix, this was a 429: a's jobs had filled the whole queue.
    const ofB = await startJob(keyB, 'What is 2+2?');
    expect(ofB.response.status).toBe(202);
    expect(ofB.body.status).toBe('queued');
    const ready = await fetch(`${server.url}/ready`, { headers: auth(keyB) });
    expect(await ready.json()).toEqual({ status: 'ready', running: 2, queued: 3 });
  });
});

describe('MCP sessions are capped per key', () => {
  it("a key at its share closes its own oldest idle session, never another key's; a full table is shared evenly", async () => {
    server = await startTestServer({ server: { apiKeys: [keyA, keyB, keyC] } });
    const open = async (key: string) => {
      const response = await openSession(key);
      await response.body?.cancel();
      return { status: response.status, id: response.headers.get('mcp-session-id') ?? '' };
    };
    // 100 sessions, half each: a's share is 50.
    const ofA = [];
    for (let index = 0; index < 50; index++) ofA.push(await open(keyA));
    expect(ofA.every((session) => session.status === 200 && session.id)).toBe(true);
    const ofB = [];
    for (let index = 0; index < 51; index++) ofB.push(await open(keyB));
    expect(ofB.every((session) => session.status === 200)).toBe(true);
    // b's 51st closed b's own oldest, and none of a's.
    expect(await sessionAlive(keyB, ofB[0]!.id)).toBe(false);
    expect(await sessionAlive(keyB, ofB[50]!.id)).toBe(true);
    for (const session of [ofA[0]!, ofA[25]!, ofA[49]!])
      expect(await sessionAlive(keyA, session.id)).toBe(true);
    // Another key's session id is not found for b, as before.
    expect(await sessionAlive(keyB, ofA[1]!.id)).toBe(false);
    expect(await sessionAlive(keyA, ofA[1]!.id)).toBe(true);
    // A third key finds the table full: the largest holder above an even split (a, 50 of 100 with
    // three keys) gives up its least recently used idle session (a[0] and a[1] were used since).
    const ofC = [];
    for (let index = 0; index < 33; index++) ofC.push(await open(keyC));
    expect(ofC.map((session) => session.status)).toEqual(Array.from({ length: 33 }, () => 200));
    expect(await sessionAlive(keyA, ofA[2]!.id)).toBe(false);
    expect(await sessionAlive(keyA, ofA[0]!.id)).toBe(true);
    expect(await sessionAlive(keyB, ofB[50]!.id)).toBe(true);
    // a and b were cut down to the even split between them, never below it.
    const alive = async (key: string, ids: string[]) =>
      (await Promise.all(ids.map((id) => sessionAlive(key, id)))).filter(Boolean).length;
    const aliveA = await alive(
      keyA,
      ofA.map((session) => session.id),
    );
    const aliveB = await alive(
      keyB,
      ofB.map((session) => session.id),
    );
    expect(aliveA + aliveB).toBe(67);
    expect(Math.min(aliveA, aliveB)).toBeGreaterThanOrEqual(33);
    // c holds its even split; a 34th session of c is taken from whichever of a and b is above it.
    const more = await openSession(keyC);
    await more.body?.cancel();
    expect(more.status).toBe(200);
  }, 60_000);
});

describe('/ready', () => {
  it('shows its counts only to a request with a valid key when keys are set', async () => {
    server = await startTestServer({ apiKey: keyA });
    const anonymous = await fetch(`${server.url}/ready`);
    expect(anonymous.status).toBe(200);
    expect(await anonymous.json()).toEqual({ status: 'ready' });
    const wrong = await fetch(`${server.url}/ready`, { headers: auth('sk-not-a-key-at-all') });
    expect(await wrong.json()).toEqual({ status: 'ready' });
    const withKey = await fetch(`${server.url}/ready`, { headers: auth(keyA) });
    expect(await withKey.json()).toEqual({ status: 'ready', running: 0, queued: 0 });
    expect(withKey.headers.get('x-content-type-options')).toBe('nosniff');
  });
});
