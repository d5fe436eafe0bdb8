// The watch API's objects as they go over HTTP (snake_case), declared once: the server builds them
// (src/watch/watch-view.ts) and the web page reads them (src/web/watches-view.ts).

/** A claim as a watch shows it: the sentence and what it cites. */
export interface WatchClaimObject {
  text: string;
  sources: Array<{ url: string; quote: string; title?: string }>;
}

/** What differs between a changed claim's two sides: the values as written. */
export interface WatchDifferenceObject {
  kind: 'number' | 'date' | 'name' | 'status';
  before: string[];
  after: string[];
}

/** A claim that is new, changed or removed since the watch's previous successful check. */
export interface WatchChangeObject {
  kind: 'new' | 'changed' | 'removed';
  before?: WatchClaimObject;
  after?: WatchClaimObject;
  differences?: WatchDifferenceObject[];
}

/** A watch: a question re-run on a schedule. The webhook's secret is never shown, only whether there is one. */
export interface WatchObject {
  id: string;
  object: 'watch';
  name: string;
  question: string;
  mode: 'search' | 'research';
  every?: string;
  cron?: string;
  notify: { url: string; format: 'json' | 'slack'; signed: boolean } | null;
  notify_always: boolean;
  paused: boolean;
  created_at: number;
  /** Null while paused. */
  next_run_at: number | null;
  last_run_at: number | null;
}

/** One check of a watch: the run it started and what changed. */
export interface WatchRunObject {
  id: string;
  object: 'watch.run';
  /** Null when the run could not even be started. */
  run_id: string | null;
  status: 'ok' | 'failed';
  started_at: number;
  finished_at: number;
  summary: string;
  error: string | null;
  /** Only new, changed and removed claims: the unchanged ones are left out. */
  changes: WatchChangeObject[];
}

/** GET /v1/watches/{id}: the watch and its checks, newest first. */
export interface WatchDetailObject extends WatchObject {
  runs: WatchRunObject[];
}
