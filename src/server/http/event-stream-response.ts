import type { Context } from 'hono';

/** What a streamed handler writes to: text as it is, or one Server-Sent Event. */
export interface EventStream {
  /** The client went away (or the server ended the response): writes are dropped. */
  readonly aborted: boolean;
  write(text: string): Promise<void>;
  writeSSE(message: { data: string; event?: string; id?: string | number }): Promise<void>;
  onAbort(listener: () => void): void;
}

/** Text queued for a slow client beyond this is written before more is taken. */
const highWaterBytes = 64 * 1024;

/**
 * A `text/event-stream` response fed by `write`, hono's streamSSE without its two layers of web
 * streams: hono's puts every write through a TransformStream and a second ReadableStream that
 * pulls from it, four promise hops before the server writes the bytes, where this one enqueues
 * them on the body the server reads (a pending read takes them at once). An API node relays every
 * event of every run it serves, so that is most of what an event costs it. Same headers, same
 * wire format; when `run` settles the stream ends. A client going away aborts it (`onAbort`).
 */
export function streamEvents(c: Context, run: (stream: EventStream) => Promise<void>): Response {
  const encoder = new TextEncoder();
  let controller!: ReadableStreamDefaultController<Uint8Array>;
  // Writes waiting for the client to take what is queued: every one of them, since a ping timer
  // may write while an event's write waits, and each must go on once there is room.
  const waiting: Array<() => void> = [];
  const listeners: Array<() => void> = [];
  let closed = false;
  const letWritesGo = () => {
    for (const resume of waiting.splice(0)) resume();
  };
  const stream = {
    aborted: false,
    async write(text: string) {
      if (stream.aborted || closed) return;
      controller.enqueue(encoder.encode(text));
      if ((controller.desiredSize ?? 1) > 0) return;
      await new Promise<void>((resolve) => {
        waiting.push(resolve);
      });
    },
    async writeSSE(message: { data: string; event?: string; id?: string | number }) {
      for (const field of [message.event, message.id])
        if (typeof field === 'string' && /[\r\n]/.test(field))
          throw new Error('an SSE event name or id must not contain a line break');
      const data = message.data
        .split(/\r\n|\r|\n/)
        .map((line) => `data: ${line}`)
        .join('\n');
      const event = message.event ? `event: ${message.event}\n` : '';
      const id = message.id === undefined ? '' : `\nid: ${message.id}`;
      return stream.write(`${event}${data}${id}\n\n`);
    },
    onAbort(listener: () => void) {
      listeners.push(listener);
    },
  };
  const body = new ReadableStream<Uint8Array>(
    {
      start(started) {
        controller = started;
      },
      pull: letWritesGo,
      cancel() {
        stream.aborted = true;
        letWritesGo();
        for (const listener of listeners.splice(0)) {
          try {
            listener();
          } catch {
            // one listener's failure stops no other
          }
        }
      },
    },
    { highWaterMark: highWaterBytes, size: (chunk) => chunk.byteLength },
  );
  // Counted while open (the metrics' gauge), when the server counts them.
  const streamEnded = (c.var as { record?: { onStream?: () => () => void } }).record?.onStream?.();
  void run(stream)
    .catch((error: unknown) => {
      // As streamSSE does: the 200 went out, so the stream just ends; the error is logged.
      console.error(error);
    })
    .finally(() => {
      streamEnded?.();
      closed = true;
      letWritesGo();
      if (!stream.aborted) controller.close();
    });
  c.header('Transfer-Encoding', 'chunked');
  c.header('Content-Type', 'text/event-stream');
  c.header('Cache-Control', 'no-cache');
  c.header('Connection', 'keep-alive');
  return c.newResponse(body);
}
