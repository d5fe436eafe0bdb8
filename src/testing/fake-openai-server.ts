import {
  type FakeErrorReply,
  type FakeLlmServer,
  type FakeRawReply,
  type FakeReplyScript,
  type FakeSilentReply,
  type FakeVendor,
  startFakeLlmServer,
} from './fake-llm-script.js';
import {
  type FakeChatContentReply,
  type FakeOpenAiRequest,
  openAiErrorBody,
  toChatRequest,
  writeChatReply,
  writeModelList,
} from './fake-openai-wire.js';

export type {
  ChatCompletionBody,
  FakeChatContentReply,
  FakeOpenAiRequest,
  OpenAiUsage,
} from './fake-openai-wire.js';

/** `{content}` answers; `{status}` fails; `{raw}` sends a malformed body; `{delayMs}` alone hangs. */
export type FakeOpenAiReply = FakeChatContentReply | FakeErrorReply | FakeRawReply | FakeSilentReply;

/** A route's replies: used up in order, or a function that answers every call on the route. */
export type FakeOpenAiRoute = FakeOpenAiReply[] | ((request: FakeOpenAiRequest) => FakeOpenAiReply);

export interface FakeOpenAiOptions extends FakeReplyScript<FakeOpenAiRequest, FakeOpenAiReply> {
  /**
   * Replies per route. A request's route is the JSON-schema name it asks for
   * (`response_format.json_schema.name`), else the first `systemRoutes` key whose pattern its system
   * prompt matches. Requests with no route, or a route not listed here, use `respond`/`replies`.
   */
  routes?: Record<string, FakeOpenAiRoute>;
  /** For prompt-mode requests, which carry no schema name: route key → text or pattern of the system prompt. */
  systemRoutes?: Record<string, string | RegExp>;
  /** When set, requests without `Authorization: Bearer <apiKey>` get OpenAI's 401. */
  apiKey?: string;
  /** Listed by GET /v1/models. Default: ['fake-model']. */
  models?: string[];
  /** Extra fields of every /v1/models entry, e.g. vLLM's `{max_model_len: 8192}`. */
  modelFields?: Record<string, unknown>;
}

export type FakeOpenAiServer = FakeLlmServer<FakeOpenAiRequest>;

/**
 * An OpenAI-compatible server on 127.0.0.1 speaking Chat Completions: POST /v1/chat/completions
 * (JSON, or SSE when `stream: true`) and GET /v1/models. Point a client at `${server.url}/v1`.
 */
export function startFakeOpenAi(options: FakeOpenAiOptions = {}): Promise<FakeOpenAiServer> {
  const routes = new Map<string, FakeOpenAiRoute>(
    Object.entries(options.routes ?? {}).map(([name, route]) => [
      name,
      Array.isArray(route) ? [...route] : route,
    ]),
  );
  const vendor: FakeVendor<FakeOpenAiRequest, FakeChatContentReply> = {
    name: 'OpenAI',
    parse(raw, index) {
      const request = toChatRequest(raw, index);
      return { ...request, route: request.schemaName ?? systemRoute(request.system, options.systemRoutes) };
    },
    serveDirect(request, response) {
      if (request.method !== 'GET' || request.path !== '/v1/models') return false;
      writeModelList(response, options.models ?? ['fake-model'], options.modelFields);
      return true;
    },
    check: (request) => checkRequest(request, options.apiKey),
    describe: (request) =>
      `#${request.index + 1} ${request.method} ${request.path}` +
      (request.route ? ` (route ${request.route})` : ''),
    pick: (request) => (request.route === undefined ? undefined : routes.get(request.route)),
    leftovers: () =>
      [...routes]
        .filter(([, route]) => Array.isArray(route) && route.length > 0)
        .map(([name, route]) => `route ${name}: ${(route as FakeOpenAiReply[]).length} repl(ies) never used`),
    writeContent: writeChatReply,
    errorBody: openAiErrorBody,
  };
  return startFakeLlmServer(vendor, options);
}

function systemRoute(system: string, patterns: Record<string, string | RegExp> = {}): string | undefined {
  for (const [name, pattern] of Object.entries(patterns)) {
    if (typeof pattern === 'string' ? system.includes(pattern) : pattern.test(system)) return name;
  }
  return undefined;
}

/** Where clients look for a local server's context window (Ollama, llama.cpp, LM Studio); OpenAI answers 404. */
const otherServersPaths = /^\/(props|api\/ps|api\/show|api\/v0\/models(\/.*)?)$/;

function checkRequest(request: FakeOpenAiRequest, apiKey: string | undefined) {
  if (request.path !== '/v1/chat/completions') {
    const expected = otherServersPaths.test(request.path);
    return { status: 404, message: `unknown path ${request.method} ${request.path}`, expected };
  }
  if (request.method !== 'POST') return { status: 405, message: `${request.method} is not allowed` };
  if (!request.json) return { status: 400, message: 'the request body is not a JSON object' };
  if (apiKey !== undefined && request.headers.authorization !== `Bearer ${apiKey}`) {
    // Like OpenAI: the key is echoed masked, so a client must not print the server's message as is.
    const sent = request.headers.authorization?.replace(/^Bearer /, '') ?? '';
    return {
      status: 401,
      message: `Incorrect API key provided: ${sent.slice(0, 3)}****${sent.slice(-4)}.`,
      expected: true,
    };
  }
  return undefined;
}
