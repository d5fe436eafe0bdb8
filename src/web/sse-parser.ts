import { createParser } from 'eventsource-parser';

/** One server-sent event as the spec dispatches it: `event` defaults to "message". */
export interface SseMessage {
  id: string | undefined;
  event: string;
  data: string;
}

export interface SseParser {
  /** Feed decoded text as it arrives; chunks may split lines (or a CRLF) anywhere. */
  push(text: string): void;
  /** The stream closed: a last event without its blank line is dropped, as the spec says. */
  end(): void;
  /** The last `id:` seen, for `Last-Event-ID` on reconnect. */
  readonly lastEventId: string | undefined;
}

/**
 * The text/event-stream format for fetch() bodies (the page needs an Authorization header on the
 * events stream, which EventSource cannot send), parsed by eventsource-parser. What it leaves to
 * the caller is kept here: the last event id carries over to later events, as in EventSource, and
 * line ends are made "\n" before parsing, a chunk's last "\r" at once (the parser would wait for a
 * possible "\n"), so a server that ends lines with CR alone is not shown an event late.
 */
export function createSseParser(onMessage: (message: SseMessage) => void): SseParser {
  let lastEventId: string | undefined;
  let pendingCr = false;
  const parser = createParser({
    onEvent(message) {
      if (message.id !== undefined && !message.id.includes('\0')) lastEventId = message.id;
      onMessage({ id: lastEventId, event: message.event || 'message', data: message.data });
    },
  });
  return {
    push(text) {
      if (pendingCr && text.startsWith('\n')) text = text.slice(1);
      pendingCr = text.endsWith('\r');
      parser.feed(text.replace(/\r\n?/g, '\n'));
    },
    end: () => parser.reset({ consume: false }),
    get lastEventId() {
      return lastEventId;
    },
  };
}
