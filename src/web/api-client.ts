import type { ResearchOutline, RunListItem, RunObject, RunResource } from '../events/run-api.js';
import type { WatchDetailObject, WatchObject } from '../events/watch-api.js';
import { createSseParser } from './sse-parser.js';

/** An OpenAI-style error body from the server, or a network failure (status 0). */
export class ApiError extends Error {
  constructor(
    message: string,
    readonly status: number,
    readonly code: string | undefined,
    /** The request field the server blamed, when it named one. */
    readonly param?: string,
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

/** A run's event as the events stream sends it: the AgentEvent JSON, loosely typed for the page. */
export interface RunEvent {
  type: string;
  seq: number;
  at: number;
  [field: string]: unknown;
}

/** What the page reads of GET /v1/runs/{id}/evidence. */
export interface RunEvidenceView {
  claims: Array<{ footnote: number; accessed_at: string | null }>;
}

/** What the page reads of GET /v1/runs/{id}/sources/{n}. */
export interface SourceSnapshotView {
  n: number;
  url: string;
  title: string;
  accessed_at: string;
  status: number | null;
  text: string;
  quote_start: number | null;
  quote_end: number | null;
}

/** A line of GET /v1/runs, as the server declares it. */
export type RunSummary = RunListItem;

/** GET /v1/research/{id}, as the server declares it. */
export type RunDetail = RunResource;

export type { ResearchOutline };

export interface EventStreamOptions {
  onEvent: (event: RunEvent) => void;
  signal?: AbortSignal;
  /** Resume after this seq (a reopened run starts from the beginning). */
  after?: number;
  /** Reconnect attempts after the stream drops without `done`. */
  retries?: number;
}

export interface ApiClient {
  createRun(body: Record<string, unknown>): Promise<RunObject>;
  /** Research's plan alone (one planning call), before any run. */
  planOutline(body: Record<string, unknown>): Promise<ResearchOutline>;
  /** A finished report as a file: its bytes and the name the server gave it. */
  downloadReport(id: string, format: string): Promise<{ blob: Blob; fileName: string }>;
  /** The run's sources as a citation file (csl-json, bibtex, ris). */
  downloadCitations(id: string, format: string): Promise<{ blob: Blob; fileName: string }>;
  /** GET /v1/runs/{id}/evidence: when each cited source was read. */
  getEvidence(id: string): Promise<RunEvidenceView>;
  /** GET /v1/runs/{id}/sources/{n}: the text read for footnote n, as it was then. */
  getSource(id: string, n: number): Promise<SourceSnapshotView>;
  getRun(id: string): Promise<RunDetail>;
  /** Goes on with a run from its last checkpoint, under the same id; `body` may raise its budget. */
  resumeRun(id: string, body: Record<string, unknown>): Promise<RunObject>;
  /** Cancels a queued or running run; deletes a finished one. */
  deleteRun(id: string): Promise<{ status?: string; deleted?: boolean }>;
  listRuns(query: {
    q?: string;
    before?: number;
    limit?: number;
  }): Promise<{ data: RunSummary[]; has_more: boolean }>;
  /** Streams the run's events until `done`; resolves with the final status. */
  streamEvents(id: string, options: EventStreamOptions): Promise<string>;
  listWatches(): Promise<{ data: WatchObject[] }>;
  getWatch(id: string): Promise<WatchDetailObject>;
  createWatch(body: Record<string, unknown>): Promise<WatchObject>;
  /** Starts a check now (202); its result shows in the watch's runs when it is done. */
  runWatch(id: string): Promise<{ status: string }>;
  updateWatch(id: string, body: Record<string, unknown>): Promise<WatchObject>;
  deleteWatch(id: string): Promise<{ deleted: boolean }>;
}

/**
 * The page's only way to the server: the public HTTP API. The key goes in an Authorization
 * header, never in a URL, which is why events come through fetch and not EventSource.
 */
export function createApiClient(options: { baseUrl: string; getKey: () => string | undefined }): ApiClient {
  const base = options.baseUrl.replace(/\/+$/, '');
  const headers = (extra: Record<string, string> = {}) => {
    const key = options.getKey();
    return { ...extra, ...(key ? { authorization: `Bearer ${key}` } : {}) };
  };

  async function request<T>(method: string, path: string, body?: unknown): Promise<T> {
    let response: Response;
    try {
      response = await fetch(`${base}${path}`, {
        method,
        headers: headers(body === undefined ? {} : { 'content-type': 'application/json' }),
        body: body === undefined ? undefined : JSON.stringify(body),
      });
    } catch (error) {
      throw new ApiError(`cannot reach the server (${(error as Error).message})`, 0, 'network');
    }
    if (!response.ok) throw await toApiError(response);
    return (await response.json()) as T;
  }

  async function streamOnce(id: string, after: number | undefined, stream: EventStreamOptions) {
    const response = await fetch(`${base}/v1/research/${encodeURIComponent(id)}/events`, {
      headers: headers({
        accept: 'text/event-stream',
        ...(after === undefined ? {} : { 'last-event-id': String(after) }),
      }),
      signal: stream.signal,
    });
    if (!response.ok || !response.body) throw await toApiError(response);
    let done: string | undefined;
    let lastSeq = after;
    const parser = createSseParser((message) => {
      if (message.event === 'done') {
        done = (safeJson(message.data) as { status?: string } | undefined)?.status ?? 'completed';
        return;
      }
      const event = safeJson(message.data) as RunEvent | undefined;
      if (!event || typeof event.type !== 'string') return;
      if (typeof event.seq === 'number') {
        // A reconnect may overlap what was already shown; the seq tells.
        if (lastSeq !== undefined && event.seq <= lastSeq) return;
        lastSeq = event.seq;
      }
      stream.onEvent(event);
    });
    const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
    for (;;) {
      const { value, done: ended } = await reader.read();
      if (ended) break;
      parser.push(value);
    }
    parser.end();
    return { done, lastSeq };
  }

  /** A file the server names (Content-Disposition): a report, the sources as citations. */
  async function download(path: string, fallbackName: string) {
    let response: Response;
    try {
      response = await fetch(`${base}${path}`, { headers: headers() });
    } catch (error) {
      throw new ApiError(`cannot reach the server (${(error as Error).message})`, 0, 'network');
    }
    if (!response.ok) throw await toApiError(response);
    const disposition = response.headers.get('content-disposition') ?? '';
    const fileName = /filename="([^"]+)"/.exec(disposition)?.[1] ?? fallbackName;
    return { blob: await response.blob(), fileName };
  }
  const runPath = (id: string) => `/v1/runs/${encodeURIComponent(id)}`;

  return {
    createRun: (body) => request('POST', '/v1/research', body),
    planOutline: (body) => request('POST', '/v1/research/outline', body),
    downloadReport: (id, format) =>
      download(
        `/v1/research/${encodeURIComponent(id)}/report?format=${encodeURIComponent(format)}`,
        `report.${format}`,
      ),
    downloadCitations: (id, format) =>
      download(`${runPath(id)}/evidence?format=${encodeURIComponent(format)}`, `sources.${format}`),
    getEvidence: (id) => request('GET', `${runPath(id)}/evidence`),
    getSource: (id, n) => request('GET', `${runPath(id)}/sources/${n}`),
    getRun: (id) => request('GET', `/v1/research/${encodeURIComponent(id)}`),
    resumeRun: (id, body) => request('POST', `/v1/research/${encodeURIComponent(id)}/resume`, body),
    deleteRun: (id) => request('DELETE', `/v1/research/${encodeURIComponent(id)}`),
    listRuns: ({ q, before, limit = 20 }) => {
      const params = new URLSearchParams({ limit: String(limit) });
      if (q) params.set('q', q);
      if (before !== undefined) params.set('before', String(before));
      return request('GET', `/v1/runs?${params}`);
    },
    listWatches: () => request('GET', '/v1/watches'),
    getWatch: (id) => request('GET', `/v1/watches/${encodeURIComponent(id)}`),
    createWatch: (body) => request('POST', '/v1/watches', body),
    runWatch: (id) => request('POST', `/v1/watches/${encodeURIComponent(id)}/run`, {}),
    updateWatch: (id, body) => request('PATCH', `/v1/watches/${encodeURIComponent(id)}`, body),
    deleteWatch: (id) => request('DELETE', `/v1/watches/${encodeURIComponent(id)}`),
    async streamEvents(id, stream) {
      let after = stream.after;
      let retries = stream.retries ?? 5;
      for (;;) {
        try {
          const { done, lastSeq } = await streamOnce(id, after, stream);
          if (done) return done;
          after = lastSeq;
        } catch (error) {
          if (stream.signal?.aborted || error instanceof ApiError || retries <= 0) throw error;
        }
        if (retries-- <= 0) throw new ApiError('the events stream kept closing early', 0, 'stream_closed');
        // Dropped without `done`: come back for exactly what was missed (Last-Event-ID).
        await new Promise((resolve) => setTimeout(resolve, 1000));
      }
    },
  };
}

async function toApiError(response: Response): Promise<ApiError> {
  const body = safeJson(await response.text().catch(() => '')) as
    | { error?: { message?: string; code?: string; param?: string | null } }
    | undefined;
  const message = body?.error?.message ?? `the server answered ${response.status} ${response.statusText}`;
  return new ApiError(message, response.status, body?.error?.code, body?.error?.param ?? undefined);
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
