// The queue of the async run API, checked on a server started with --max-concurrent 2 --max-queue 3:
// 8 jobs at once whose LLM calls never end (`hold-` questions). 2 must run, 3 wait as `queued` (and
// GET says so), 3 get the documented 429 `server_busy` with Retry-After; DELETE then cancels the
// running and the queued ones alike, and the server is left with nothing running or waiting.
const limit = 2;
const queueLimit = 3;
const submitted = 8;

export async function checkQueue(url) {
  const problems = [];
  const api = (path, init = {}) =>
    fetch(`${url}/v1${path}`, { ...init, headers: { 'content-type': 'application/json' } });
  const answers = await Promise.all(
    Array.from({ length: submitted }, async (_, index) => {
      const response = await api('/research', {
        method: 'POST',
        body: JSON.stringify({ question: `Who won? (bench question hold-${index})` }),
      });
      return {
        status: response.status,
        retryAfter: response.headers.get('retry-after'),
        body: await response.json(),
      };
    }),
  );
  const accepted = answers.filter((answer) => answer.status === 202).map((answer) => answer.body);
  const running = accepted.filter((job) => job.status === 'running');
  const queued = accepted.filter((job) => job.status === 'queued');
  const rejected = answers.filter((answer) => answer.status !== 202);
  const expect = (what, actual, expected) => {
    if (actual !== expected) problems.push(`${what}: ${actual}, expected ${expected}`);
  };
  expect('running', running.length, limit);
  expect('queued', queued.length, queueLimit);
  expect('rejected', rejected.length, submitted - limit - queueLimit);
  for (const answer of rejected) {
    expect('rejection status', answer.status, 429);
    expect('rejection code', answer.body.error?.code, 'server_busy');
    if (!/^\d+$/.test(answer.retryAfter ?? '')) problems.push(`Retry-After: ${answer.retryAfter}`);
  }
  for (const job of queued)
    expect('GET of a queued job', (await (await api(`/research/${job.id}`)).json()).status, 'queued');
  const ready = await (await fetch(`${url}/ready`)).json();
  expect('/ready running', ready.running, limit);
  expect('/ready queued', ready.queued, queueLimit);
  // Queued ones first: cancelling a running job would hand its slot to one of them.
  for (const job of [...queued, ...running]) {
    const cancelled = await (await api(`/research/${job.id}`, { method: 'DELETE' })).json();
    expect(`DELETE of a ${job.status} job`, cancelled.status, 'cancelled');
  }
  const after = await (await fetch(`${url}/ready`)).json();
  expect('/ready running after DELETE', after.running, 0);
  expect('/ready queued after DELETE', after.queued, 0);
  const retryAfter = rejected[0]?.retryAfter;
  const summary =
    `queue check (--max-concurrent ${limit} --max-queue ${queueLimit}, ${submitted} at once): ${running.length} running, ` +
    `${queued.length} queued, ${rejected.length} rejected (429 server_busy, Retry-After ${retryAfter}); ` +
    `DELETE cancelled ${accepted.length}`;
  return `${summary}: ${problems.length === 0 ? 'OK' : `FAILED (${problems.join('; ')})`}`;
}
