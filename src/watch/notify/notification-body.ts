import type { ClaimChange, ClaimSource } from '../claims/claim-types.js';
import type { NotifyFormat, Watch, WatchRun } from '../watch-record.js';

/** One change as a webhook gets it: the claims' text before and after, and their sources. */
export interface NotifiedChange {
  kind: 'new' | 'changed' | 'removed';
  before?: string;
  after?: string;
  sources: Array<{ url: string; quote: string }>;
}

/** The JSON a watch's webhook receives (docs/watch.md). */
export interface NotificationPayload {
  watch: { id: string; name: string; question: string };
  run: { id: string | null; url: string | null };
  changed: boolean;
  changes: NotifiedChange[];
  summary: string;
}

/** The changes worth telling: new, changed and removed claims (unchanged ones are left out). */
export function notifiedChanges(changes: readonly ClaimChange[]): NotifiedChange[] {
  const told: NotifiedChange[] = [];
  for (const change of changes) {
    if (change.kind === 'unchanged') continue;
    const sources = dedupeSources([...(change.before?.sources ?? []), ...(change.after?.sources ?? [])]);
    told.push({
      kind: change.kind,
      ...(change.before ? { before: change.before.text } : {}),
      ...(change.after ? { after: change.after.text } : {}),
      sources,
    });
  }
  return told;
}

export function notificationPayload(options: {
  watch: Pick<Watch, 'id' | 'name' | 'question'>;
  run: WatchRun;
  runUrl: string | null;
}): NotificationPayload {
  const { watch, run } = options;
  const changes = run.status === 'ok' ? notifiedChanges(run.changes) : [];
  return {
    watch: { id: watch.id, name: watch.name, question: watch.question },
    run: { id: run.runId, url: options.runUrl },
    changed: changes.length > 0,
    changes,
    summary: run.summary,
  };
}

/** The body posted: the payload as JSON, or for Slack-compatible incoming webhooks `{text}`. */
export function notificationBody(payload: NotificationPayload, format: NotifyFormat): string {
  return JSON.stringify(format === 'slack' ? { text: slackText(payload) } : payload);
}

/** A message a person reads in a chat channel: what was asked, what changed, with the sources. */
export function slackText(payload: NotificationPayload): string {
  const lines = [`*${payload.watch.name}*: ${payload.summary}`, `> ${payload.watch.question}`];
  for (const change of payload.changes) {
    if (change.kind === 'changed') lines.push(`• changed: ~${change.before}~ → ${change.after}`);
    else if (change.kind === 'new') lines.push(`• new: ${change.after}`);
    else lines.push(`• removed: ~${change.before}~`);
    for (const source of change.sources) lines.push(`    <${source.url}>: “${source.quote}”`);
  }
  if (payload.run.url) lines.push(`<${payload.run.url}|the run>`);
  return lines.join('\n');
}

function dedupeSources(sources: readonly ClaimSource[]): Array<{ url: string; quote: string }> {
  const seen = new Set<string>();
  const kept: Array<{ url: string; quote: string }> = [];
  for (const { url, quote } of sources) {
    const key = `${url}\n${quote}`;
    if (seen.has(key)) continue;
    seen.add(key);
    kept.push({ url, quote });
  }
  return kept;
}
