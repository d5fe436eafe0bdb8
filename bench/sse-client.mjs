// A run's /events as an EventSource-like client reads them: blocks split on a blank line, `id`,
// `event` and `data` fields, comments (`: ping`) skipped, Last-Event-ID sent on reconnection.

/** The complete blocks of an SSE body, as they arrive; a block cut by a disconnection is not one. */
async function* sseBlocks(body) {
  const decoder = new TextDecoder();
  let text = '';
  for await (const bytes of body) {
    text += decoder.decode(bytes, { stream: true });
    let end = text.indexOf('\n\n');
    while (end >= 0) {
      const block = {};
      for (const line of text.slice(0, end).split('\n')) {
        const match = /^(id|event|data): ?(.*)$/.exec(line);
        if (match) block[match[1]] = match[2];
      }
      text = text.slice(end + 2);
      end = text.indexOf('\n\n');
      if (block.data !== undefined || block.event !== undefined) yield block;
    }
  }
}

/**
 * Follows a run's events to `event: done`. After the event counts in `dropAfter` (counted across
 * connections) it drops the connection, waits `awayMs` and reconnects with the last id seen.
 */
export async function followEvents(url, { started, dropAfter = [], awayMs = 0 }) {
  const events = [];
  let firstEventMs;
  let lastId;
  let reconnects = 0;
  for (;;) {
    const controller = new AbortController();
    const response = await fetch(url, {
      headers: lastId === undefined ? {} : { 'last-event-id': lastId },
      signal: controller.signal,
    });
    if (response.status !== 200) throw new Error(`GET /events answered ${response.status}`);
    let dropped = false;
    try {
      for await (const block of sseBlocks(response.body)) {
        if (block.event === 'done') {
          return {
            events,
            firstEventMs,
            doneAt: performance.now(),
            status: JSON.parse(block.data).status,
            reconnects,
          };
        }
        firstEventMs ??= performance.now() - started;
        events.push({ seq: Number(block.id), data: block.data });
        lastId = block.id;
        if (dropAfter[reconnects] === events.length) {
          dropped = true;
          controller.abort();
          break;
        }
      }
    } catch (error) {
      if (!dropped) throw error;
    }
    if (!dropped) throw new Error(`the event stream ended without done after ${events.length} events`);
    reconnects++;
    await new Promise((resolve) => setTimeout(resolve, awayMs));
  }
}

/** Every event a finished run's /events sends (those stored), without `done`. */
export async function readEvents(url) {
  const response = await fetch(url);
  if (response.status !== 200) throw new Error(`GET /events answered ${response.status}`);
  const events = [];
  for await (const block of sseBlocks(response.body))
    if (block.event !== 'done') events.push({ seq: Number(block.id), data: block.data });
  return events;
}
