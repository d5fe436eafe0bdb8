import type { ServerResponse } from 'node:http';
import { type FakeHttpServer, type RecordedRequest, startFakeHttpServer } from './fake-http-server.js';

/** A model reply; each vendor fake writes it in its own wire format. */
export interface FakeContentReply<Usage> {
  content: string;
  /** Sent on the vendor's reasoning channel (reasoning_content, thinking block, thought part). */
  reasoning?: string;
  /** Usage in the vendor's field names; 'none' leaves usage out, as some servers do. Default: estimated. */
  usage?: Usage | 'none';
  /** Wait this long before answering. */
  delayMs?: number;
}

/** An HTTP error; without a body the vendor's usual error JSON for that status is sent. */
export interface FakeErrorReply {
  status: number;
  /** A string is sent as is (an HTML page from a proxy, say); anything else as JSON. */
  body?: unknown;
  headers?: Record<string, string>;
  delayMs?: number;
}

/** A body sent exactly as given: not JSON, or JSON of the wrong shape. */
export interface FakeRawReply {
  raw: string;
  status?: number;
  contentType?: string;
  delayMs?: number;
}

/** Says nothing for `delayMs`, then drops the connection: a server that hangs. */
export interface FakeSilentReply {
  delayMs: number;
}

/** Any reply a fake can give, for a vendor's content reply type. */
export type FakeReplyOf<Content> = Content | FakeErrorReply | FakeRawReply | FakeSilentReply;

export type FakeReply<Usage> = FakeReplyOf<FakeContentReply<Usage>>;

/** A queue of replies, or a function that answers each request (used up in that order). */
export interface FakeReplyScript<Request, Reply> {
  replies?: Reply[];
  /** Consulted before the queue; returning undefined falls through to the queue. */
  respond?: (request: Request) => Reply | undefined;
}

/** What every fake LLM server offers a test, besides its own request type. */
export interface FakeLlmServer<Request> {
  /** Base URL without a trailing slash and without the API version path. */
  url: string;
  /** Every request, in arrival order (including ones that got an error). */
  requests: Request[];
  /** Unexpected calls (nothing left to answer them), wrong paths, missing headers. */
  problems: string[];
  /** Replies left in the default queue (route queues are checked by assertConsumed). */
  readonly remaining: number;
  /** Throws when a problem happened or a queued reply was never used. */
  assertConsumed(): void;
  close(): Promise<void>;
}

export interface FakeRejection {
  status: number;
  message: string;
  /** Not a problem: the test set the fake up to refuse this (a wrong key). */
  expected?: boolean;
  /** Sent instead of the vendor's usual error body for `message`. */
  body?: unknown;
}

/** The vendor-specific parts of a fake: how to read a request and how to write replies. */
export interface FakeVendor<Request, Content extends FakeContentReply<unknown>> {
  name: string;
  /** Adds the vendor's view of the request (parsed body, schema name, prompts) to what was recorded. */
  parse(raw: RecordedRequest, index: number): Request;
  /**
   * A request the server refuses before any reply is used: a wrong path or missing header is a
   * problem; a wrong key is not.
   */
  check(request: Request): FakeRejection | undefined;
  /** Requests answered directly, without consuming a reply (e.g. GET /v1/models). */
  serveDirect?(request: Request, response: ServerResponse): boolean;
  /** Short description of the request for problem messages. */
  describe(request: Request): string;
  /** Replies the vendor holds elsewhere (routes) that were never used, described for assertConsumed. */
  leftovers?(): string[];
  /** The reply queue to use for this request; undefined means the default script. */
  pick?(request: Request): Reply<Content>[] | ((request: Request) => Reply<Content>) | undefined;
  writeContent(response: ServerResponse, reply: Content, request: Request): void;
  errorBody(status: number, message: string): unknown;
}

type Reply<Content> = FakeReplyOf<Content>;

/**
 * Runs a vendor fake on 127.0.0.1: records every request, answers from the script, and turns a
 * request nothing can answer into a 500 plus an entry in `problems`, so a test can assert none happened.
 */
export async function startFakeLlmServer<Request, Content extends FakeContentReply<unknown>>(
  vendor: FakeVendor<Request, Content>,
  script: FakeReplyScript<Request, Reply<Content>>,
): Promise<FakeLlmServer<Request>> {
  const queue = [...(script.replies ?? [])];
  const requests: Request[] = [];
  const problems: string[] = [];
  const http: FakeHttpServer = await startFakeHttpServer(async (raw, response) => {
    const request = vendor.parse(raw, requests.length);
    requests.push(request);
    if (vendor.serveDirect?.(request, response)) return;
    const rejection = vendor.check(request);
    if (rejection) {
      if (!rejection.expected) problems.push(`${vendor.describe(request)}: ${rejection.message}`);
      const body = rejection.body ?? vendor.errorBody(rejection.status, rejection.message);
      return sendJson(response, rejection.status, body);
    }
    const reply = takeReply(request);
    if (!reply) {
      const message = `fake ${vendor.name} server: unexpected call ${vendor.describe(request)}: no reply left`;
      problems.push(message);
      return sendJson(response, 500, vendor.errorBody(500, message));
    }
    await deliverReply(response, reply, {
      content: (content) => vendor.writeContent(response, content, request),
      error: (status) => vendor.errorBody(status, defaultErrorMessages[status] ?? `HTTP ${status}`),
    });
  });

  function takeReply(request: Request): Reply<Content> | undefined {
    const routed = vendor.pick?.(request);
    if (typeof routed === 'function') return routed(request);
    if (routed) return routed.shift();
    return script.respond?.(request) ?? queue.shift();
  }

  return {
    url: http.url,
    requests,
    problems,
    get remaining() {
      return queue.length;
    },
    assertConsumed() {
      const issues = [...problems];
      if (queue.length > 0) issues.push(`${queue.length} queued repl(ies) never used`);
      issues.push(...(vendor.leftovers?.() ?? []));
      if (issues.length > 0) throw new Error(`fake ${vendor.name} server: ${issues.join('; ')}`);
    },
    close: () => http.close(),
  };
}

const defaultErrorMessages: Record<number, string> = {
  400: 'Invalid request.',
  401: 'Invalid API key provided.',
  403: 'You do not have access to this resource.',
  404: 'The model does not exist.',
  429: 'Rate limit reached. Please try again later.',
  500: 'The server had an error while processing your request.',
  503: 'The service is temporarily overloaded.',
};

async function deliverReply<Content extends FakeContentReply<unknown>>(
  response: ServerResponse,
  reply: Reply<Content>,
  write: { content: (reply: Content) => void; error: (status: number) => unknown },
): Promise<void> {
  if (reply.delayMs && !(await waitUnlessClosed(response, reply.delayMs))) return;
  if ('content' in reply) return write.content(reply as Content);
  if ('raw' in reply) {
    response.writeHead(reply.status ?? 200, { 'content-type': reply.contentType ?? 'application/json' });
    response.end(reply.raw);
    return;
  }
  if ('status' in reply) {
    return sendJson(response, reply.status, reply.body ?? write.error(reply.status), reply.headers);
  }
  // A silent reply: the connection goes away without an answer.
  response.socket?.destroy();
}

/** Resolves false when the client went away first (it timed out or aborted). */
function waitUnlessClosed(response: ServerResponse, ms: number): Promise<boolean> {
  return new Promise((resolve) => {
    const onClose = () => {
      clearTimeout(timer);
      resolve(false);
    };
    const timer = setTimeout(() => {
      response.off('close', onClose);
      resolve(true);
    }, ms);
    response.once('close', onClose);
  });
}

export function sendJson(
  response: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): void {
  const text = typeof body === 'string' ? body : JSON.stringify(body ?? {});
  const contentType = typeof body === 'string' ? 'text/plain; charset=utf-8' : 'application/json';
  response.writeHead(status, { 'content-type': contentType, ...headers });
  response.end(text);
}

/** Roughly four characters a token: enough for a fake that must report some usage. */
export function roughTokens(text: string): number {
  return Math.ceil(text.length / 4);
}

/** Text of a message content that is either a string or a list of parts with `text`. */
export function contentText(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content
    .map((part) => (typeof part?.text === 'string' ? (part.text as string) : ''))
    .filter(Boolean)
    .join('\n');
}

export function parseJsonBody(body: string): Record<string, unknown> | undefined {
  try {
    const value: unknown = JSON.parse(body);
    return typeof value === 'object' && value !== null ? (value as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}
